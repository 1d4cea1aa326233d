/* A parser generator's reduce function (lemon, as in SQLite): a macro defined empty in this build
 * stands alone on its line before a (void) cast of a parameter; the action is read before it is
 * set when the stack is deep. */
typedef struct Parser { int top; int depth; } Parser;

#define PARSER_ARG_FETCH

int trace(int token);

int reduce(Parser *parser, int rule, int lookahead)
{
    int action;
    PARSER_ARG_FETCH
    (void)lookahead;
    if (parser->depth > 10)
        action += trace(lookahead); /* BUG(uninitialised-read) BUG(dead-store) */
    action = parser->top + rule;
    return action;
}
