// atc's whole command line run: parses argv as CANN's atc does, converts or shows a model,
// prints what it did, and returns the process exit status (0 success, 1 failure).
#pragma once

int AtcMain(int argc, char** argv);
