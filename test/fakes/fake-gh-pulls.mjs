// The fake gh's read-only pull-request endpoints (fake-gh-api.mjs routes to them), over the JSON
// file named by FAKE_GH_PULLS:
//
//   {"pulls": {"<owner>/<name>#<n>": {"title", "draft", "user": {"login", "type"}, "head": {"ref", "sha"},
//              "base": {"ref", "sha"}, "files": [{"filename", "status", "patch"?, "previous_filename"?}]}},
//    "contents": {"<owner>/<name>": {"<ref>": {"<path>": "<text>"}}}}
//
//   repos/<o>/<r>/pulls/<n>                 GitHub's pull request JSON (a subset of its fields)
//   repos/<o>/<r>/pulls/<n>/files[?query]   the files in pages of per_page (default 30, at most 100)
//                                           from page, each with additions, deletions and changes
//                                           counted from its patch; --paginate reads every page
//   repos/<o>/<r>/contents/<path>?ref=<ref> {type: "file", encoding: "base64", content (base64 in
//                                           lines of 60), size, name, path, sha}; a ref the repository
//                                           does not have: `gh: No commit found for the ref <ref> (HTTP 404)`;
//                                           no such file at that ref: `gh: Not Found (HTTP 404)`
// A PR not in the file is `gh: Not Found (HTTP 404)`, as is any method but GET.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { URLSearchParams } from 'node:url';

const NOT_FOUND = 'gh: Not Found (HTTP 404)';
const PULL = /^\/?repos\/([^/]+\/[^/]+)\/pulls\/([1-9][0-9]*)$/;
const FILES = /^\/?repos\/([^/]+\/[^/]+)\/pulls\/([1-9][0-9]*)\/files(?:\?(.*))?$/;
const CONTENTS = /^\/?repos\/([^/]+\/[^/]+)\/contents\/([^?]+)(?:\?(.*))?$/;

/** The jq filter github-pr-reads.ts prints files with: one compact object a line. */
export const FILES_JQ = { pattern: /^\.\[\] \| \{filename, status, patch, previous_filename\}$/, run: (value) => filesOf(value).map((f) => ({ filename: f.filename, status: f.status, patch: f.patch ?? null, previous_filename: f.previous_filename ?? null })) };

/** `{ok, pages}` or `{ok: false, stderr}` for an endpoint of this file, or undefined for any other. */
export function routePulls(endpoint, method, paginate) {
  const pull = PULL.exec(endpoint);
  const files = FILES.exec(endpoint);
  const contents = CONTENTS.exec(endpoint);
  if (!pull && !files && !contents) return undefined;
  if (method !== 'GET') return { ok: false, stderr: NOT_FOUND };
  const data = readData();
  if (!data.ok) return data;
  if (contents) return fileContents(data.value, contents[1], decodeURIComponent(contents[2]), new URLSearchParams(contents[3] ?? '').get('ref'));
  const [, repo, number] = pull ?? files;
  const pr = data.value.pulls?.[`${repo}#${number}`];
  if (!pr) return { ok: false, stderr: NOT_FOUND };
  if (pull) return { ok: true, pages: [restPull(repo, Number(number), pr)] };
  return listFiles(repo, pr.head?.sha ?? '', pr.files ?? [], files[3] ?? '', paginate);
}

function readData() {
  if (!process.env.FAKE_GH_PULLS) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(readFileSync(process.env.FAKE_GH_PULLS, 'utf8')) };
  } catch {
    return { ok: false, stderr: 'fake-gh: FAKE_GH_PULLS is not a readable JSON file' };
  }
}

function restPull(repo, number, pr) {
  const host = process.env.GH_HOST || 'github.com';
  const counts = (pr.files ?? []).map((f) => counted(f.patch));
  return {
    url: `https://api.${host}/repos/${repo}/pulls/${number}`,
    html_url: `https://${host}/${repo}/pull/${number}`,
    number,
    state: 'open',
    title: pr.title ?? '',
    body: pr.body ?? null,
    draft: pr.draft ?? false,
    user: { login: pr.user?.login ?? 'mona', id: 7, type: pr.user?.type ?? 'User' },
    head: { label: `${repo.split('/')[0]}:${pr.head?.ref ?? 'fix'}`, ref: pr.head?.ref ?? 'fix', sha: pr.head?.sha ?? '', repo: { full_name: repo } },
    base: { label: `${repo.split('/')[0]}:${pr.base?.ref ?? 'main'}`, ref: pr.base?.ref ?? 'main', sha: pr.base?.sha ?? '', repo: { full_name: repo } },
    additions: counts.reduce((sum, c) => sum + c.additions, 0),
    deletions: counts.reduce((sum, c) => sum + c.deletions, 0),
    changed_files: (pr.files ?? []).length,
  };
}

/** GitHub's pages: `per_page` (default 30, at most 100) from `page`; gh --paginate reads on to the end. */
function listFiles(repo, headSha, all, query, paginate) {
  const params = new URLSearchParams(query);
  const perPage = Math.min(100, Math.max(1, Number(params.get('per_page')) || 30));
  const first = Math.max(1, Number(params.get('page')) || 1);
  const host = process.env.GH_HOST || 'github.com';
  const files = all.map((f) => {
    const { additions, deletions } = counted(f.patch);
    const blob = `https://${host}/${repo}/blob/${headSha}/${f.filename}`;
    return {
      sha: createHash('sha1').update(f.filename).digest('hex'),
      filename: f.filename,
      status: f.status,
      additions,
      deletions,
      changes: additions + deletions,
      blob_url: blob,
      raw_url: blob.replace('/blob/', '/raw/'),
      contents_url: `https://api.${host}/repos/${repo}/contents/${f.filename}?ref=${headSha}`,
      ...(f.patch === undefined ? {} : { patch: f.patch }),
      ...(f.previous_filename === undefined ? {} : { previous_filename: f.previous_filename }),
    };
  });
  const pages = [];
  for (let page = first; ; page++) {
    pages.push(files.slice((page - 1) * perPage, page * perPage));
    if (!paginate || page * perPage >= files.length) break;
  }
  return { ok: true, pages };
}

function fileContents(data, repo, path, ref) {
  const refs = data.contents?.[repo] ?? {};
  // Without ?ref= GitHub reads the default branch; the fake's is `main`.
  const at = ref ?? 'main';
  if (!Object.hasOwn(refs, at)) return { ok: false, stderr: `gh: No commit found for the ref ${at} (HTTP 404)` };
  const text = refs[at][path];
  if (typeof text !== 'string') return { ok: false, stderr: NOT_FOUND };
  const bytes = Buffer.from(text, 'utf8');
  const content = (bytes.toString('base64').match(/.{1,60}/g) ?? []).join('\n');
  return {
    ok: true,
    pages: [{ type: 'file', encoding: 'base64', size: bytes.length, name: path.split('/').at(-1), path, content: `${content}\n`, sha: createHash('sha1').update(bytes).digest('hex') }],
  };
}

function counted(patch) {
  let additions = 0;
  let deletions = 0;
  for (const line of (patch ?? '').split('\n')) {
    if (line.startsWith('+')) additions++;
    else if (line.startsWith('-')) deletions++;
  }
  return { additions, deletions };
}

function filesOf(value) {
  if (!Array.isArray(value)) throw new Error(`cannot iterate over: ${typeof value}`);
  return value;
}
