// The model cards: every curated model of an authenticated provider, every model with recorded
// usage, and every assigned model, once each. Models with usage come first (by cost, then tokens),
// the rest keep the catalog's order; an assignment never moves a card.
import type { Auxiliary, ModelDetails, ModelOptions, Usage, UsageModel } from './api-types.js';

export type ModelCard = {
  readonly key: string;
  readonly provider: string;
  readonly providerName: string;
  readonly model: string;
  readonly details: ModelDetails | undefined;
  readonly usage: UsageModel | undefined;
  /** `main` and/or `aux · <task>` labels; every aux slot together reads `aux · all 11 tasks`. */
  readonly badges: readonly string[];
  readonly capabilities: readonly string[];
  readonly contextLength: number | undefined;
};

export const cardKey = (provider: string, model: string): string => `${provider}\u0000${model}`;

/** The assignment badges per model: `main`, then `aux · <task>` in slot order. */
export function assignmentBadges(aux: Auxiliary): Map<string, string[]> {
  const badges = new Map<string, string[]>();
  const add = (provider: string, model: string, badge: string) => {
    const key = cardKey(provider, model);
    badges.set(key, [...(badges.get(key) ?? []), badge]);
  };
  if (aux.main.provider && aux.main.model) add(aux.main.provider, aux.main.model, 'main');
  const pinned = aux.tasks.filter((t) => t.provider !== '' && t.provider !== 'auto' && t.model !== '');
  const byModel = new Map<string, typeof pinned>();
  for (const task of pinned) {
    const key = cardKey(task.provider, task.model);
    byModel.set(key, [...(byModel.get(key) ?? []), task]);
  }
  for (const [key, tasks] of byModel) {
    const [provider = '', model = ''] = key.split('\u0000');
    if (tasks.length === aux.tasks.length && tasks.length > 1) add(provider, model, `aux · all ${tasks.length} tasks`);
    else for (const task of tasks) add(provider, model, `aux · ${task.task}`);
  }
  return badges;
}

export function buildCards(options: ModelOptions, aux: Auxiliary, usage: Usage | null): ModelCard[] {
  const names = new Map<string, string>([
    ...options.providers.map((p) => [p.slug, p.name] as const),
    ...(options.unauthenticated ?? []).map((p) => [p.slug, p.name] as const),
  ]);
  const details = new Map<string, ModelDetails>();
  const order: Array<{ provider: string; model: string }> = [];
  const seen = new Set<string>();
  const include = (provider: string, model: string) => {
    const key = cardKey(provider, model);
    if (provider === '' || model === '' || seen.has(key)) return;
    seen.add(key);
    order.push({ provider, model });
  };
  for (const provider of options.providers) {
    for (const detail of provider.model_details ?? []) details.set(cardKey(provider.slug, detail.id), detail);
    for (const model of provider.models) include(provider.slug, model);
  }
  const usageByKey = new Map((usage?.models ?? []).map((u) => [cardKey(u.provider, u.model), u] as const));
  for (const u of usage?.models ?? []) include(u.provider, u.model);
  include(aux.main.provider, aux.main.model);
  for (const task of aux.tasks) if (task.provider !== 'auto') include(task.provider, task.model);

  const badges = assignmentBadges(aux);
  const cards = order.map(({ provider, model }): ModelCard => {
    const key = cardKey(provider, model);
    const detail = details.get(key);
    const used = usageByKey.get(key);
    return {
      key,
      provider,
      providerName: names.get(provider) ?? provider,
      model,
      details: detail,
      usage: used,
      badges: badges.get(key) ?? [],
      capabilities: detail?.capabilities ?? used?.capabilities ?? [],
      contextLength: detail?.context_length ?? used?.context_length ?? undefined,
    };
  });
  const rank = (card: ModelCard) => (card.usage && card.usage.calls > 0 ? 0 : 1);
  const tokens = (card: ModelCard) => (card.usage ? card.usage.input_tokens + card.usage.output_tokens : 0);
  // Array.prototype.sort is stable: cards without usage keep the catalog's order.
  return cards.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (b.usage?.cost_usd ?? 0) - (a.usage?.cost_usd ?? 0) ||
      tokens(b) - tokens(a),
  );
}
