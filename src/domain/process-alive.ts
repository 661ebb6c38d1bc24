// Whether a process on this host lives: the gateway's pid file and the store's lease recovery
// both ask it (a store on the ground floor cannot import the gateway's module).

/** Alive unless the kernel says there is no such process (EPERM: it exists, owned by another user). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
