# PicoYacht on a Raspberry Pi Pico 2 (RP2350, Arm cores, 4 MB flash). Built by `make uf2`.
set(PICO_BOARD "pico2")
set(PICO_PLATFORM "rp2350")
set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/../../manifest.py)
