// PicoYacht on a Raspberry Pi Pico (runs on a Pico W too, without its radio).
// Flash (2 MB): firmware from 0, then the read-only ROMFS with the Expert tables that fit
// (/rom, packed), then the player's littlefs (/) at the very end. The filesystem's place and
// size never change between PicoYacht releases, so flashing a newer .uf2 keeps saves and
// records.
#define MICROPY_HW_BOARD_NAME                   "PicoYacht Pico"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (256 * 1024)
#define MICROPY_HW_ROMFS_BYTES                  (1216 * 1024)
