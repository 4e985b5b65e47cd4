/* checksum: byte checksums for framed messages. */
#ifndef CHECKSUM_H
#define CHECKSUM_H

unsigned char sum8(const unsigned char *p, int n);
unsigned char xor8(const unsigned char *p, int n);
unsigned short fletcher16(const unsigned char *p, int n);
unsigned adler32(const unsigned char *p, int n);
unsigned char crc8_update(unsigned char crc, unsigned char b);
int parity_byte(unsigned char b);
int frame_ok(const unsigned char *p, int n, unsigned char expected);

#endif
