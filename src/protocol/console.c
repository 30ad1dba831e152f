/* Console front end and protocol detection: see console.h. */
#include "protocol/console.h"

#include <string.h>

#include "commands/commands.h"
#include "util/textline.h"
#include "util/words.h"

/* Commands that select a protocol other than the default (UCI). */
static const struct {
    const char *command;
    ConsoleExit protocol;
} PROTOCOLS[] = {
    { "uci", CONSOLE_UCI },
    { "xboard", CONSOLE_XBOARD },
};

ConsoleExit console_loop(Engine *e, FILE *in, Writer *out, char *line, size_t size)
{
    for (;;) {
        LineStatus st = iolog_read_line(out->log, in, line, size);
        if (st == LINE_END || st == LINE_ERROR)
            break;
        if (st != LINE_OK) {
            /* Refused whole: a tail read as a new line could be any command. */
            writer_printf(out, "error: %s, ignored\n",
                          st == LINE_TOO_LONG ? "line too long" : "line holds a NUL byte");
            continue;
        }
        char cmd[32];
        words_first(line, cmd, sizeof cmd);
        if (!cmd[0])
            continue;
        if (!strcmp(cmd, "quit"))
            return CONSOLE_QUIT;
        for (size_t i = 0; i < sizeof PROTOCOLS / sizeof *PROTOCOLS; i++)
            if (!strcmp(cmd, PROTOCOLS[i].command))
                return PROTOCOLS[i].protocol;
        char err[512];
        CommandInput input = {.in = in};
        if (engine_perft_running(e) && commands_run_known(line))
            engine_wait(e); /* commands piped after a perft run after it */
        if (commands_run(e, line, &input, out, err, sizeof err)) {
            if (err[0])
                writer_printf(out, "error: %s\n", err);
            if (input.quit)
                return CONSOLE_QUIT;
            continue;
        }
        /* Anything else is taken as UCI, the default protocol (it reports unknown
         * commands itself). */
        return CONSOLE_UCI;
    }
    /* End of input: a perft piped in (bounded work) is counted to its end. */
    engine_wait(e);
    line[0] = '\0';
    return CONSOLE_QUIT;
}
