struct settings { int verbose; int width; };

static struct settings *current;

void settings_load(int verbose)
{
    struct settings s;
    s.verbose = verbose;
    s.width = 80;
    current = &s; /* BUG(return-local-address) */
}

int settings_width(void)
{
    return current->width;
}
