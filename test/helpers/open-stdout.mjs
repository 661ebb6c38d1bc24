// Loaded by test/e2e/cli-stdout.test.ts (node --import): makes process.stdout, which sets a pipe
// non-blocking (reading the property builds the stream).
void process.stdout.writable;
