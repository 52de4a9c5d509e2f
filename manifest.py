# Freeze PicoYacht into your own MicroPython build: add
#     include("/path/to/picoyacht/manifest.py")
# to your board's manifest. main.py and config.py stay on the filesystem so the pin map
# can still be edited; copy them with `make flash-src` or mpremote.
package("picoyacht", base_path="firmware")
