/* Structures with bit-fields as inputs (crates/cli/tests/bitfields.rs). */

struct flags {
    unsigned mode : 3;
    int delta : 5;
    unsigned on : 1;
    unsigned : 0;
    signed char tag : 4;
    _Bool ready : 1;
};

struct packet {
    unsigned char kind;
    struct flags f;
    unsigned long long id : 64;
    unsigned len : 12;
};

struct flags g_state = {2, -3, 1, 5, 1};

/* By value. */
int classify(struct flags f) {
    if (f.on) {
        if (f.delta < 0)
            return -1;
        return f.mode;
    }
    return f.tag;
}

/* By pointer: writes merge into bytes shared with other fields. */
int bump(struct flags *f) {
    if (f->mode == 7)
        return 0;
    f->mode++;
    f->delta = -f->delta;
    f->tag = 5;
    return f->mode;
}

/* A nested structure with bit-fields, a 64-bit field and a 12-bit one. */
int route(struct packet *p) {
    if (p->len > 100) {
        p->f.ready = 1;
        return 2;
    }
    if (p->f.mode == p->kind)
        return 1;
    p->len += 1;
    p->id = p->id ^ 0x8000000000000000ull;
    return 0;
}

/* A global's bit-fields. */
int toggle(int x) {
    if (x > g_state.mode) {
        g_state.on = !g_state.on;
        return g_state.delta;
    }
    return g_state.tag;
}
