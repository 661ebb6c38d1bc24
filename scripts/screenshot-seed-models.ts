// The Models page's screenshot data: fallback chains in an already-seeded home's config.yaml,
// written through the same library as the page's PUT /api/model/fallbacks (comments kept): a
// global chain of two, and a vision chain of one, so the editors show filled lists.
import { resolveHomePaths } from '../src/config/home.js';
import { updateConfig } from '../src/config/store.js';
import { setFallbackList } from '../src/routing/fallback-chains.js';

export async function seedModels(home: string, _now: number): Promise<void> {
  const paths = resolveHomePaths({ IRIS_HOME: home });
  const written = await updateConfig(paths, (doc) => {
    const global = setFallbackList(doc, { kind: 'global' }, [
      { provider: 'openai', model: 'gpt-5.1' },
      { provider: 'openrouter', model: 'google/gemini-2.5-pro' },
    ]);
    if (!global.ok) return global;
    return setFallbackList(doc, { kind: 'task', task: 'vision' }, [{ provider: 'openrouter', model: 'anthropic/claude-haiku-4.5' }]);
  });
  if (!written.ok) throw new Error(`seedModels: ${written.error.message}`);
}
