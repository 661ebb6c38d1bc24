// Unknown config keys are worth one warning per process, not one per read: the gateway re-reads
// the config for every new session.

export function createWarnOnce(): (messages: readonly string[]) => string[] {
  const seen = new Set<string>();
  return (messages) => {
    const fresh = messages.filter((m) => !seen.has(m));
    for (const m of fresh) seen.add(m);
    return fresh;
  };
}
