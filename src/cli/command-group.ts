// What a command group's declarations receive besides the program: a way to set the exit code of
// a command that decides its own (a one-shot chat, gateway status).
export type SetExitCode = (code: number) => void;
