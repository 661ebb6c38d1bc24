// config.yaml as a YAML Document, so that edits keep the user's comments, key order, quoting
// and unknown keys. Every write goes through `setScalarIn`; nothing here touches the disk.
import { type Document, isAlias, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { fail, type Result } from './result.js';
import { errorMessage } from '../domain/error-message.js';

export type ConfigDocument = Document.Parsed | Document;

export type Scalar = string | number | boolean;

export const STARTER_CONFIG = `# Iris configuration. Every key and its default: docs/configuration.md
# \`iris config set <dotted.key> <value>\` edits this file and keeps your comments.
model: ''
`;

/** Stringify options: no line folding, so long prompts keep the shape the user gave them. */
const TO_STRING = { lineWidth: 0 } as const;

/** YAML 1.1 merge keys (`<<: *base`) are common in hand-written configs. */
export const PARSE_OPTIONS = { prettyErrors: true, merge: true } as const;

export function parseConfigText(text: string, fileName: string): Result<{ doc: ConfigDocument }> {
  const doc = parseDocument(text, PARSE_OPTIONS);
  const error = doc.errors[0];
  if (error) {
    const where = error.linePos?.[0];
    const firstLine = error.message.split('\n')[0] ?? error.message;
    const reason = firstLine.replace(/ at line \d+, column \d+:?$/, '');
    const position = where ? `line ${where.line}, column ${where.col}` : 'unknown position';
    return fail('parse_error', `${fileName}: invalid YAML at ${position}: ${reason}`);
  }
  return { ok: true, doc };
}

/** The document as plain data; an alias bomb or similar is a parse error, not a crash. */
export function documentData(doc: ConfigDocument, fileName: string): Result<{ data: unknown }> {
  try {
    return { ok: true, data: doc.toJS() };
  } catch (err) {
    return fail('parse_error', `${fileName}: cannot read the YAML: ${errorMessage(err)}`);
  }
}

/**
 * An alias (`vision: *base`) standing where an edit goes is replaced by a copy of its anchor, so
 * the edit changes this key only and keeps everything the anchor supplied.
 */
function materialize(doc: ConfigDocument, node: unknown): unknown {
  return isAlias(node) ? doc.createNode(node.resolve(doc)?.toJSON()) : node;
}

export function serializeDocument(doc: ConfigDocument): string {
  return doc.toString(TO_STRING);
}

function isCollection(node: unknown): boolean {
  return isMap(node) || isSeq(node);
}

/**
 * Sets one scalar at `path`. A scalar standing where a mapping is needed (for example
 * `model: ''` when setting `model.provider`) becomes a mapping; a mapping or list at the target
 * itself is refused, since replacing it with a scalar would silently drop the user's settings.
 */
export function setScalarIn(
  doc: ConfigDocument,
  path: readonly string[],
  value: Scalar,
): Result<{ previous: unknown }> {
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    doc.contents = doc.createNode({});
  }
  if (!isMap(doc.contents)) {
    return fail('not_a_mapping', 'the top level of config.yaml is not a mapping; fix the file first');
  }
  let node: unknown = doc.contents;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as string;
    const here = path.slice(0, i + 1).join('.');
    const last = i === path.length - 1;
    if (isSeq(node)) {
      const index = /^\d+$/.test(segment) ? Number(segment) : -1;
      if (index < 0 || index >= node.items.length) {
        return fail('invalid_key', `${here}: no list item ${segment} (the list has ${node.items.length})`);
      }
      const child = materialize(doc, node.items[index]);
      node.items[index] = child;
      if (last) {
        if (isCollection(child)) return notScalar(here);
        const previous = isScalar(child) ? child.value : child;
        if (isScalar(child)) child.value = value;
        else node.items[index] = doc.createNode(value);
        return { ok: true, previous };
      }
      if (!isCollection(child)) node.items[index] = doc.createNode({});
      node = node.items[index];
      continue;
    }
    if (!isMap(node)) return fail('not_a_mapping', `${here}: the parent is not a mapping`);
    const original = node.get(segment, true);
    const child = materialize(doc, original);
    if (child !== original) node.set(segment, child);
    if (last) {
      if (isCollection(child)) return notScalar(here);
      const previous = isScalar(child) ? child.value : undefined;
      if (isScalar(child)) child.value = value; // keeps the node's comment
      else node.set(segment, value);
      return { ok: true, previous };
    }
    if (!isCollection(child)) node.set(segment, doc.createNode({}));
    node = node.get(segment, true);
  }
  return fail('invalid_key', 'an empty key names nothing');
}

function notScalar(path: string): { ok: false; error: { code: 'not_scalar'; message: string } } {
  return {
    ok: false,
    error: {
      code: 'not_scalar',
      message: `${path} holds a mapping or a list; config set takes scalars (set one of its keys, or edit config.yaml)`,
    },
  };
}
