// What a page shows until its data is there: "Loading…", or the load's failure with a way to try
// again. One piece, so every page says it the same way.
export function LoadState({ what, error, loaded, onRetry }: { what: string; error: string | null; loaded: boolean; onRetry: () => void }) {
  if (error !== null) {
    return (
      <div className="error load-error" role="alert">
        <p>
          Could not load {what}: {error}
        </p>
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  return loaded ? null : <p className="loading">Loading…</p>;
}
