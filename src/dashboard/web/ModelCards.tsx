// The model cards: usage since a chosen span, capabilities, where each model is assigned, and a
// Use as control to assign it as the main model, to every auxiliary task, or to one task.
import { useId, useRef, useState, type FormEvent } from 'react';
import { type Auxiliary, type ModelOptions, type SetRequest, type Usage } from './api-types.js';
import type { Assign } from './pages/ModelsPage.js';
import { compactNumber, contextText, costText } from './format.js';
import { buildCards, type ModelCard } from './model-cards.js';

export const SINCE_CHOICES = [
  { value: '24h', label: 'the last 24 hours' },
  { value: '7d', label: 'the last 7 days' },
  { value: '30d', label: 'the last 30 days' },
  { value: 'all', label: 'all time' },
] as const;

type Props = {
  readonly options: ModelOptions;
  readonly aux: Auxiliary;
  readonly usage: Usage | null;
  readonly usageError: string | null;
  readonly since: string;
  readonly onSince: (since: string) => void;
  readonly assign: Assign;
};

export function ModelCards({ options, aux, usage, usageError, since, onSince, assign }: Props) {
  const ids = useId();
  const cards = buildCards(options, aux, usage);
  const sinceLabel = SINCE_CHOICES.find((c) => c.value === since)?.label ?? since;
  return (
    <section className="cards-section" aria-labelledby={`${ids}-title`}>
      <div className="cards-head">
        <h2 id={`${ids}-title`}>Models and usage</h2>
        <label className="since">
          Usage in
          <select value={since} onChange={(event) => onSince(event.target.value)}>
            {SINCE_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {usageError !== null && (
        <p className="error" role="alert">
          Usage could not be loaded: {usageError}
        </p>
      )}
      {cards.length === 0 ? (
        <p className="hint">No models to show yet: add a provider credential first.</p>
      ) : (
        <ul className="cards">
          {cards.map((card) => (
            <li key={card.key}>
              <Card card={card} aux={aux} sinceLabel={sinceLabel} assign={assign} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const MAIN = 'main';
const ALL = 'all';

function requestFor(choice: string, card: ModelCard): SetRequest {
  const { provider, model } = card;
  if (choice === MAIN) return { scope: 'main', provider, model };
  return { scope: 'auxiliary', target: choice === ALL ? { kind: 'all' } : { kind: 'one', task: choice }, provider, model };
}

function choiceLabel(choice: string, aux: Auxiliary): string {
  if (choice === MAIN) return 'the main model';
  if (choice === ALL) return 'every auxiliary task';
  return aux.tasks.find((t) => t.task === choice)?.name ?? choice;
}

function Card({ card, aux, sinceLabel, assign }: { card: ModelCard; aux: Auxiliary; sinceLabel: string; assign: Assign }) {
  const ids = useId();
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const busy = useRef(false);
  const used = card.usage && card.usage.calls > 0 ? card.usage : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (choice === '' || busy.current) return;
    busy.current = true;
    const failure = await assign(requestFor(choice, card));
    busy.current = false;
    setError(failure);
    // Said here too: on a narrow screen the Model Settings panel is out of view.
    setDone(failure === null ? `Now used as ${choiceLabel(choice, aux)}. Applies to new sessions.` : null);
    if (failure === null) setChoice('');
  };

  return (
    <article className="card" aria-labelledby={`${ids}-model ${ids}-provider`}>
      <header>
        <h3 id={`${ids}-model`}>{card.model}</h3>
        <p className="provider" id={`${ids}-provider`}>
          {card.providerName}
        </p>
      </header>
      {card.badges.length > 0 && (
        <ul className="badges" aria-label="Assigned as">
          {card.badges.map((badge) => (
            <li key={badge} className={`badge ${badge === 'main' ? 'main' : 'aux'}`}>
              {badge}
            </li>
          ))}
        </ul>
      )}
      {(card.capabilities.length > 0 || card.contextLength) && (
        <ul className="capabilities" aria-label="Capabilities">
          {card.capabilities.map((capability) => (
            <li key={capability} className="badge capability">
              {capability}
            </li>
          ))}
          {card.contextLength ? <li className="badge capability">{contextText(card.contextLength)}</li> : null}
        </ul>
      )}
      {used ? (
        <dl className="stats">
          <div>
            <dt>Calls</dt>
            <dd>{compactNumber(used.calls)}</dd>
          </div>
          <div>
            <dt>Input</dt>
            <dd>{compactNumber(used.input_tokens)}</dd>
          </div>
          <div>
            <dt>Output</dt>
            <dd>{compactNumber(used.output_tokens)}</dd>
          </div>
          <div>
            <dt>Cached</dt>
            <dd>{compactNumber(used.cached_tokens ?? 0)}</dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd>
              {costText(used.cost_usd)}
              {used.unpriced_calls ? <span className="unpriced"> ({used.unpriced_calls} unpriced)</span> : null}
            </dd>
          </div>
        </dl>
      ) : (
        <p className="no-usage">No calls in {sinceLabel}.</p>
      )}
      <form className="use-as" onSubmit={(event) => void submit(event)}>
        <label htmlFor={`${ids}-use`}>Use as</label>
        <select
          id={`${ids}-use`}
          value={choice}
          onChange={(event) => {
            setChoice(event.target.value);
            setDone(null);
          }}
        >
          <option value="">Choose…</option>
          <option value={MAIN}>Main model</option>
          <option value={ALL}>All auxiliary tasks</option>
          <optgroup label="One auxiliary task">
            {aux.tasks.map((task) => (
              <option key={task.task} value={task.task}>
                {task.name ?? task.task}
              </option>
            ))}
          </optgroup>
        </select>
        <button type="submit" disabled={choice === ''}>
          Apply
        </button>
      </form>
      {done !== null && <p className="done">{done}</p>}
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
