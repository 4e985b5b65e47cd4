/* A ring buffer; its capacity comes from the build (-DRING_CAPACITY). */
#include "ring.h"

static int ring_ok(const struct ring *r)
{
    return r->count <= RING_CAPACITY && r->head < RING_CAPACITY && r->tail < RING_CAPACITY;
}

void ring_init(struct ring *r)
{
    r->head = 0;
    r->tail = 0;
    r->count = 0;
}

/* Only well-formed rings are pushed to. */
int ring_push_pre(struct ring *r, int v)
{
    (void)v;
    return r != 0 && ring_ok(r);
}

int ring_push(struct ring *r, int v)
{
    if (r->count == RING_CAPACITY)
        return -1;
    r->data[r->tail] = v;
    r->tail = (r->tail + 1) % RING_CAPACITY;
    r->count++;
    return 0;
}

int ring_pop_pre(struct ring *r, int *out)
{
    return r != 0 && out != 0 && ring_ok(r);
}

int ring_pop(struct ring *r, int *out)
{
    if (r->count == 0)
        return -1;
    *out = r->data[r->head];
    r->head = (r->head + 1) % RING_CAPACITY;
    r->count--;
    return 0;
}

int ring_peek_pre(const struct ring *r, int *out)
{
    return r != 0 && out != 0 && ring_ok(r);
}

int ring_peek(const struct ring *r, int *out)
{
    if (r->count == 0)
        return -1;
    *out = r->data[r->head];
    return 0;
}

int ring_is_empty(const struct ring *r)
{
    return r->count == 0;
}

int ring_is_full(const struct ring *r)
{
    return r->count >= RING_CAPACITY;
}

unsigned ring_size(const struct ring *r)
{
    if (r == 0)
        return 0;
    return r->count;
}
