// The empty state: no provider has a working credential, so there is nothing to pick yet.
import type { ModelOptions } from './api-types.js';

type Unauthenticated = NonNullable<ModelOptions['unauthenticated']>;

export function NoCredentials({ unauthenticated }: { unauthenticated: Unauthenticated }) {
  const withKey = unauthenticated.filter((p) => p.key_env);
  return (
    <div className="notice empty">
      <p>
        <strong>No provider has a credential yet.</strong> Add an API key with <code>iris config set</code>, then
        reload this page:
      </p>
      {withKey.length > 0 && (
        <ul className="commands">
          {withKey.map((p) => (
            <li key={p.slug}>
              {p.name}: <code>iris config set {p.key_env} &lt;key&gt;</code>
            </li>
          ))}
        </ul>
      )}
      <p className="hint">
        For your own endpoint or a cloud deployment, run <code>iris model</code>.
      </p>
    </div>
  );
}
