/* The PGN annotate writes for one game: the tag section exactly as read plus an Annotator
 * tag, a comment with the game's summary, then the main line with an evaluation comment
 * after every analysed move ({[%eval 0.35]} or {[%eval #-3]}, White's view in pawns, the
 * convention lichess and ChessBase read for their graphs), the mark as a NAG ($6 ?!,
 * $2 ?, $4 ??) with the mover's evaluation before and after, the better line as a
 * variation, and the opening's ECO code and name where the game left the ECO table. The
 * comments and variations of the input's movetext are not kept. */
#ifndef SAAVEDRA_ANNOTATE_PGN_H
#define SAAVEDRA_ANNOTATE_PGN_H

#include <stdio.h>

#include "commands/annotate_game.h"
#include "opening/eco.h"

/* tags: the game's tag lines as read (len bytes, may be 0), without the blank line after
 * them; an Annotator tag among them is replaced. annotator: the Annotator tag's value;
 * eco may be NULL. */
void annotate_write_game(FILE *out, const char *tags, size_t len, const AnnotatedGame *g,
                         const char *annotator, const char *result, const EcoTable *eco);

/* The summary comment's text (no braces): per side ACPL, accuracy and the mark counts. */
void annotate_summary_text(const AnnotatedGame *g, char *buf, size_t size);

/* An evaluation as written in [%eval]: pawns with two decimals, or #N / #-N. */
void annotate_eval_text(int white_score, char *buf, size_t size);

#endif
