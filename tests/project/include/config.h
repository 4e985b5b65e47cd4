/* Build configuration, force-included into checksum.c (-include). */
#ifndef CONFIG_H
#define CONFIG_H
#define CHECKSUM_SEED 0x5a
#endif
