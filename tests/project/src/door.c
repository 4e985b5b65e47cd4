/* A door: closed, open or locked; events are letters o, c, l, u. */
#include "door.h"
#include "logger.h"

enum door_event door_event_of(char c)
{
    switch (c) {
    case 'o':
        return EV_OPEN;
    case 'c':
        return EV_CLOSE;
    case 'l':
        return EV_LOCK;
    case 'u':
        return EV_UNLOCK;
    default:
        return EV_NONE;
    }
}

enum door_state door_step(enum door_state s, enum door_event e)
{
    switch (s) {
    case DOOR_CLOSED:
        if (e == EV_OPEN)
            return DOOR_OPEN;
        if (e == EV_LOCK)
            return DOOR_LOCKED;
        return DOOR_CLOSED;
    case DOOR_OPEN:
        if (e == EV_CLOSE)
            return DOOR_CLOSED;
        return DOOR_OPEN;
    case DOOR_LOCKED:
        if (e == EV_UNLOCK)
            return DOOR_CLOSED;
        return DOOR_LOCKED;
    }
    return s;
}

int door_is_locked(enum door_state s)
{
    return s == DOOR_LOCKED;
}

int door_apply_pre(struct door *d, enum door_event e)
{
    return d != 0 && d->state >= DOOR_CLOSED && d->state <= DOOR_LOCKED && d->opens >= 0 && d->opens < 100
        && e >= EV_OPEN && e <= EV_NONE;
}

/* Applies an event and logs each opening (log_event lives in logger.c). */
void door_apply(struct door *d, enum door_event e)
{
    enum door_state next = door_step(d->state, e);
    if (next == DOOR_OPEN && d->state != DOOR_OPEN) {
        d->opens++;
        log_event(d->opens);
    }
    d->state = next;
}

int door_count_opens(const char *events)
{
    enum door_state s = DOOR_CLOSED;
    int opens = 0;
    int i;
    for (i = 0; events[i] != '\0'; i++) {
        enum door_state next = door_step(s, door_event_of(events[i]));
        if (next == DOOR_OPEN && s != DOOR_OPEN)
            opens++;
        s = next;
    }
    return opens;
}
