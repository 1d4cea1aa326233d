struct settings { int verbose; int width; };

static struct settings stored;
static struct settings *current;

void settings_load(int verbose)
{
    stored.verbose = verbose;
    stored.width = 80;
    current = &stored;
}

int settings_width(void)
{
    return current->width;
}
