// The conversation on the Chat page: what the user said, the answer as plain text (never HTML from
// the model: React escapes it), each tool call as a compact step that opens to its arguments and
// result, approvals with their risk and Approve / Deny, notices and errors.
import type { ChatItem } from '../chat/chat-items.js';

type Approval = Extract<ChatItem, { kind: 'approval' }>;
type Tool = Extract<ChatItem, { kind: 'tool' }>;

export type AnswerApproval = (id: string, decision: 'approve' | 'deny') => void;

function toolState(item: Tool): string {
  if (item.ok === undefined) return 'running…';
  return item.ok ? 'done' : 'failed';
}

function ToolStep({ item }: { item: Tool }) {
  return (
    <details className="chat-tool" data-state={item.ok === undefined ? 'running' : item.ok ? 'ok' : 'failed'}>
      <summary>
        <span className="chat-tool-name">{item.name}</span> <span className="chat-tool-state">{toolState(item)}</span>
      </summary>
      <p className="chat-tool-label">Arguments</p>
      <pre className="chat-pre">{item.arguments}</pre>
      {item.result !== undefined && (
        <>
          <p className="chat-tool-label">Result</p>
          <pre className="chat-pre chat-tool-result">{item.result}</pre>
        </>
      )}
    </details>
  );
}

function ApprovalCard({ item, onAnswer, pending }: { item: Approval; onAnswer: AnswerApproval; pending: boolean }) {
  const risk = item.risk;
  const scoredBy = risk.source === 'model' ? 'the approval model' : risk.source === 'pattern' ? 'a dangerous pattern' : 'the policy';
  return (
    <section className="chat-approval" aria-label="Approval needed" data-risk={risk.level}>
      <p className="chat-approval-head">
        Run this command? <span className={`chat-risk chat-risk-${risk.level}`}>{risk.level} risk</span>
      </p>
      <pre className="chat-pre">{item.command}</pre>
      <p className="hint">
        in <code>{item.cwd}</code> · risk from {scoredBy}
        {risk.reasons.length > 0 ? `: ${risk.reasons.join('; ')}` : ''}
      </p>
      {item.answer ? (
        <p className="chat-approval-answer">{item.answer.approved ? `Approved (${item.answer.reason})` : `Denied (${item.answer.reason})`}</p>
      ) : (
        <div className="chat-approval-actions">
          <button type="button" className="primary" disabled={pending} onClick={() => onAnswer(item.id, 'approve')}>
            Approve
          </button>
          <button type="button" disabled={pending} onClick={() => onAnswer(item.id, 'deny')}>
            Deny
          </button>
        </div>
      )}
    </section>
  );
}

export function ChatItems({ items, onAnswer, answering }: { items: readonly ChatItem[]; onAnswer: AnswerApproval; answering: ReadonlySet<string> }) {
  return (
    <ol className="chat-items">
      {items.map((item, index) => (
        <li key={index} className={`chat-item chat-item-${item.kind}`}>
          {item.kind === 'user' && (
            <div className="chat-bubble" aria-label="You said">
              {item.text}
            </div>
          )}
          {item.kind === 'assistant' && (
            <div className="chat-answer" aria-label="Answer">
              {item.text}
            </div>
          )}
          {item.kind === 'tool' && <ToolStep item={item} />}
          {item.kind === 'approval' && <ApprovalCard item={item} onAnswer={onAnswer} pending={answering.has(item.id)} />}
          {item.kind === 'notice' && <p className="chat-notice">{item.text}</p>}
          {item.kind === 'error' && (
            <p className="error" role="alert">
              {item.text}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}
