// PicoYacht on a Raspberry Pi Pico 2 (RP2350). Flash (4 MB): firmware from 0 (640 KB: the
// Pico's 576 KB and more, for the same package), then the read-only ROMFS with Expert's
// tables (/rom, every one, packed), then the player's littlefs (/) at the end. The
// filesystem's place and size never change between PicoYacht releases, so flashing a newer
// .uf2 keeps saves and records.
#define MICROPY_HW_BOARD_NAME                   "PicoYacht Pico 2"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1792 * 1024)
#define MICROPY_HW_ROMFS_BYTES                  (1664 * 1024)
