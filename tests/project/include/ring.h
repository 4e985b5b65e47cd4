/* ring: a fixed-capacity ring buffer of ints. */
#ifndef RING_H
#define RING_H

#ifndef RING_CAPACITY
#define RING_CAPACITY 4
#endif

struct ring {
    int data[RING_CAPACITY];
    unsigned head;  /* next slot to read */
    unsigned tail;  /* next slot to write */
    unsigned count;
};

void ring_init(struct ring *r);
int ring_push(struct ring *r, int v);
int ring_pop(struct ring *r, int *out);
int ring_peek(const struct ring *r, int *out);
int ring_is_empty(const struct ring *r);
int ring_is_full(const struct ring *r);
unsigned ring_size(const struct ring *r);

#endif
