# PicoYacht on a Raspberry Pi Pico or Pico W (RP2040, 2 MB flash). Built by `make uf2`.
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")
set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/../../manifest.py)
