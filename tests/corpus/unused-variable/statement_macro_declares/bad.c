/* A parser generator's reduce function (lemon, as in SQLite's fts5): a macro that declares a local
 * is written as a statement of its own with no semicolon, right before a (void) cast that marks a
 * parameter as used; the size computed for a trace is never read. */
typedef struct Parse Parse;
struct Parse { int errors; };
typedef struct Parser { Parse *parse; int top; } Parser;

#define PARSER_ARG_FETCH Parse *parse = parser->parse;

void finished(Parse *parse, int value);

int reduce(Parser *parser, int rule, int lookahead)
{
    int action;
    int size; /* BUG(unused-variable) */
    PARSER_ARG_FETCH
    (void)lookahead;
    action = parser->top + rule;
    finished(parse, action);
    return action;
}
