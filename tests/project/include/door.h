/* door: the state machine of a door with a lock. */
#ifndef DOOR_H
#define DOOR_H

enum door_state { DOOR_CLOSED, DOOR_OPEN, DOOR_LOCKED };
enum door_event { EV_OPEN, EV_CLOSE, EV_LOCK, EV_UNLOCK, EV_NONE };

struct door {
    enum door_state state;
    int opens;
};

enum door_event door_event_of(char c);
enum door_state door_step(enum door_state s, enum door_event e);
int door_is_locked(enum door_state s);
void door_apply(struct door *d, enum door_event e);
int door_count_opens(const char *events);

#endif
