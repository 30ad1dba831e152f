/* Internal to the xboard front end (xboard.c parses commands, xbplay.c runs searches
 * and plays moves): the session state they share. Not an interface for other modules. */
#ifndef SAAVEDRA_XBSTATE_H
#define SAAVEDRA_XBSTATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine/engine.h"
#include "board/gameend.h"
#include "engine/manners.h"
#include "protocol/xbedit.h"
#include "protocol/xbtime.h"

typedef enum { XS_IDLE, XS_THINK, XS_PONDER, XS_ANALYZE } XbSearch;

typedef struct {
    Engine *engine;
    FILE *out;
    pthread_mutex_t out_lock;

    /* Event queue: lines from the reader thread, and the end of a search. */
    FILE *in;
    pthread_t reader;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    char **lines;
    int line_head, line_count, line_cap;
    bool input_closed;
    bool search_done;            /* on_bestmove has run; main loop must collect it */
    Move done_best, done_ponder;

    /* Commands held back while the engine thinks on its move (ping, usermove, ...). */
    char **deferred;
    int deferred_count, deferred_cap;

    /* The game: start position and every move since, for undo and move counting. */
    char start_fen[128];
    Color start_side;
    Move *moves;
    int move_count, move_cap;
    int level_ply;               /* game ply when `level` was received */
    bool position_valid;         /* false after an edit produced an illegal position */
    bool game_over;

    /* Who plays what. */
    bool force;
    Color engine_side;
    bool analyzing;
    bool ponder_enabled;         /* hard / easy */
    bool edit_mode;
    XbEdit edit;
    XbClock clock;
    bool debug_ok;               /* GUI accepted feature debug=1 */

    /* The running search. */
    XbSearch search;
    Move ponder_move;            /* predicted opponent move while pondering */
    Move hint_move;              /* our prediction for the current position, or none */
    int64_t think_start_ms;
    Position *ponder_base;       /* the game position before the predicted move */
    Position *search_root;       /* root for SAN in thinking output (search thread) */
    Position *scratch;           /* search-thread scratch for SAN conversion */
    Position *main_scratch;      /* the same for the main thread (never shared) */
    Move output_prefix;          /* ponder: the predicted move, shown before the PV; set
                                  * before the search starts, then only read (search thread) */
    atomic_bool post;
    int excluded_count;
    Move excluded[MAX_MOVES];

    /* Status for `.` in analyze mode (written by the search thread under lock). */
    int stat_depth, stat_move_number;
    uint64_t stat_nodes;
    Move stat_move;

    /* Server manners. */
    MannersState manners;
    OpponentInfo opponent;
    int own_rating;
    char opponent_name[64];
    bool on_server;
} Xb;

/* Output (whole lines, under out_lock; newline added). */
void xb_send(Xb *xb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "# ..." debug line, only with -t. */
void xb_trace(Xb *xb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Game record. */
void xb_game_reset(Xb *xb, const char *fen);   /* after a new position (not a move) */
void xb_game_push(Xb *xb, Move m);             /* move already made on the engine */
/* Takes back n plies (engine and record); false if the game has fewer. */
bool xb_game_undo(Xb *xb, int n);
int xb_own_moves_since_level(const Xb *xb, Color us);

/* Input (xbinput.c). */
typedef enum { XB_EVENT_LINE, XB_EVENT_SEARCH_DONE, XB_EVENT_INPUT_CLOSED } XbEvent;
/* Starts the reader thread on `in`. */
bool xb_input_start(Xb *xb, FILE *in);
/* Ends the reader (cancelled if still blocked on input) and joins it. */
void xb_input_stop(Xb *xb);
/* Waits for the next event: the end of a search first, then input lines in order
 * (*line is then a malloc'ed line for the caller), then the end of input. */
XbEvent xb_input_wait(Xb *xb, char **line);
/* Holds a command back until the engine has moved. */
void xb_defer(Xb *xb, const char *line);

/* Features and settings (xbopts.c). */
void xb_send_features(Xb *xb);
/* Sets an option as the GUI; a failure or a warning goes back as `Error (...): line`. */
void xb_set_option(Xb *xb, const char *name, const char *value, const char *line);
void xb_cmd_memory(Xb *xb, const char *arg, const char *line);
void xb_cmd_cores(Xb *xb, const char *arg, const char *line);
void xb_cmd_option(Xb *xb, const char *arg, const char *line);
void xb_cmd_egtpath(Xb *xb, const char *type, const char *path, const char *line);

/* Searches (xbplay.c). */
void xb_start_think(Xb *xb);
void xb_start_analyze(Xb *xb);
/* Stops any search and throws its result away; a ponder search's predicted move is
 * taken back. */
void xb_stop_search(Xb *xb);
/* The opponent's move arrived while pondering: true if it was the predicted one (the
 * ponder search goes on as a normal search); otherwise the ponder search is dropped. */
bool xb_ponder_hit(Xb *xb, Move played);
/* Handles the end of a search (called by the main loop when search_done is seen). */
void xb_search_finished(Xb *xb);
/* Claims the result on the board if the game is over; true if it was. */
bool xb_claim_if_over(Xb *xb);
/* Answers `.` in analyze mode. */
void xb_send_status(Xb *xb);

#endif
