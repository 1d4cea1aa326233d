/* A tree walker (SQLite's sqlite3WalkSelect): the parse context is fetched inside a condition for
 * an object-like macro whose body reads it, but the macro is not the one named after it. */
typedef struct Parse { int mode; } Parse;
typedef struct Walker { Parse *parse; int callback; int depth; } Walker;

#define IN_RENAME_OBJECT (parse->mode >= 2)
#define TOO_DEEP (walker->depth > 100)

int walk_window(Walker *walker)
{
    Parse *parse;
    if (walker->callback == 1 || ((parse = walker->parse) != 0 && TOO_DEEP)) { /* BUG(dead-store) */
        return 1;
    }
    return 0;
}
