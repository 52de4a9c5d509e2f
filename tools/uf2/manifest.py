# What the PicoYacht .uf2 freezes (tools/uf2/build.py writes build/uf2-gen first).
# ruff: noqa: F821  (include, module: MicroPython's manifest vocabulary)
include("$(PORT_DIR)/boards/manifest.py")  # the stock frozen modules (_boot, asyncio, ...)
include("../../manifest.py")  # the picoyacht package
module("config.py", base_path="../../firmware")  # pin map defaults; /config.py overrides
module("main.py")  # entry point: /main.py on the drive runs instead, else the game
module("picoyacht_main.py", base_path="../../build/uf2-gen")  # firmware/main.py
module("picoyacht/version.py", base_path="../../build/uf2-gen")  # git describe
