// The text of anything thrown. `(err as Error).message` is undefined for a thrown string or
// object and crashes on a thrown null; this never does, so no failure is reported as "undefined".

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  if (typeof err === 'object' && err !== null && 'message' in err && typeof err.message === 'string') return err.message;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}
