/* Set from the command line: announce() then returns without freeing its line. */
int dry_run = 0;

void parse_options(int argc, char **argv)
{
    if (argc > 1 && argv[1][0] == 'n')
        dry_run = 1;
}
