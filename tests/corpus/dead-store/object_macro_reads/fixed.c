/* A tree walker (SQLite's sqlite3WalkSelect): the parse context is fetched inside a condition for
 * an object-like macro, named after it, whose body reads it. */
typedef struct Parse { int mode; } Parse;
typedef struct Walker { Parse *parse; int callback; } Walker;

#define IN_RENAME_OBJECT (parse->mode >= 2)

int walk_window(Walker *walker)
{
    Parse *parse;
    if (walker->callback == 1 || ((parse = walker->parse) != 0 && IN_RENAME_OBJECT)) {
        return 1;
    }
    return 0;
}
