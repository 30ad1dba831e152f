/* `saavedra codec FILE.pgn...`: round-trips every move of every game (main lines and
 * variations) through the one-byte move code, checks the incremental numbering tracker
 * against from-scratch numbering, and measures the codec and the PGN reader. */
#ifndef SAAVEDRA_CODEC_CMD_H
#define SAAVEDRA_CODEC_CMD_H

/* argv holds the file names. Prints PGN and tracker lines, then exactly one line
 * "games: G  moves: M  fallback: F  roundtrip-errors: E  rate: R Mmoves/s".
 * Returns 0 when every move round-tripped and every file could be read. */
int cmd_codec(int argc, char **argv);

#endif
