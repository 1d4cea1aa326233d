/* This build has no dry-run mode: nothing in the program sets it. */
int dry_run = 0;

int is_dry_run(void)
{
    return dry_run != 0;
}
