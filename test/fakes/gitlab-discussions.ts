// The fake GitLab's merge-request discussions (gitlab-api.ts routes to them): the threads a review
// posts its findings in. Faithful where Iris depends on it:
//
//   POST projects/:id/merge_requests/:iid/discussions          {body, position?}: a DiffNote thread.
//        The position is checked as GitLab does: position_type "text", the MR's diff_refs shas, a
//        file of the diff (new_path, old_path), and a line the diff shows: an added line has
//        new_line only, a context line old_line and new_line, both matching. Anything else is 400
//        {"message":"400 Bad request - Note {:line_code=>[\"can't be blank\", \"must be a valid line code\"]}"}
//   GET  projects/:id/merge_requests/:iid/discussions          oldest first, in pages (X-Next-Page)
//   POST projects/:id/merge_requests/:iid/discussions/:d/notes {body}: a reply
//   GET  projects/:id/merge_requests/:iid/discussions/:d        one discussion (404 when there is none)
//   PUT  projects/:id/merge_requests/:iid/discussions/:d?resolved=true|false
// Discussion ids are 40 hex digits; note ids count up from 5000. (Discussion notes are kept apart
// from the MR's plain notes of gitlab-api.ts.)
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FakeMergeRequest } from './gitlab-mr-reads.js';

export type FakeDiscussionNote = { readonly id: number; readonly body: string; readonly author: { readonly id: number; readonly username: string }; readonly position: unknown; resolved: boolean; readonly created_at: string };
export type FakeDiscussion = { readonly id: string; readonly notes: FakeDiscussionNote[] };

type Answer = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;

const BAD_LINE = { message: '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' };

/** New-side line → old-side line (null for an added line) of a patch's shown lines. */
function shownLines(patch: string): Map<number, number | null> {
  const lines = new Map<number, number | null>();
  let oldAt = 0;
  let newAt = 0;
  let inHunk = false;
  for (const line of patch.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldAt = Number(hunk[1]);
      newAt = Number(hunk[2]);
      inHunk = true;
    } else if (!inHunk) continue;
    else if (line.startsWith('+')) lines.set(newAt++, null);
    else if (line.startsWith('-')) oldAt++;
    else if (line.startsWith(' ')) lines.set(newAt++, oldAt++);
  }
  return lines;
}

export function mergeRequestDiscussions(me: { id: number; username: string }) {
  const byMr = new Map<string, FakeDiscussion[]>();
  const mergeRequests = new Map<string, FakeMergeRequest>();
  let nextNote = 5000;
  let clock = Date.UTC(2026, 0, 2);
  const list = (key: string) => {
    const found = byMr.get(key) ?? [];
    byMr.set(key, found);
    return found;
  };
  const note = (body: string, position: unknown, author = me): FakeDiscussionNote => ({ id: nextNote++, body, author, position, resolved: false, created_at: new Date((clock += 1000)).toISOString() });

  function positionProblem(mr: FakeMergeRequest | undefined, position: Record<string, unknown>): boolean {
    if (position.position_type !== 'text') return true;
    if (mr?.diff_refs) {
      const refs = mr.diff_refs;
      if (position.base_sha !== refs.base_sha || position.start_sha !== refs.start_sha || position.head_sha !== refs.head_sha) return true;
    }
    if (!mr) return false;
    const file = mr.files.find((f) => f.new_path === position.new_path && f.old_path === position.old_path);
    if (!file || typeof position.new_line !== 'number') return true;
    const shown = shownLines(file.diff);
    if (!shown.has(position.new_line)) return true;
    const old = shown.get(position.new_line);
    return old === null ? position.old_line !== undefined && position.old_line !== null : position.old_line !== old;
  }

  return {
    setMergeRequest(project: string, iid: number, mr: FakeMergeRequest) {
      mergeRequests.set(`${project}!${iid}`, mr);
    },
    discussions: (project: string, iid: number): FakeDiscussion[] => list(`${project}!${iid}`),
    /** A human's reply in a discussion (as a test's webhook would report it). */
    reply(project: string, iid: number, discussionId: string, body: string, author: { id: number; username: string }): FakeDiscussionNote | undefined {
      const discussion = list(`${project}!${iid}`).find((d) => d.id === discussionId);
      if (!discussion) return undefined;
      const added = note(body, null, author);
      discussion.notes.push(added);
      return added;
    },
    /** A person resolves (or unresolves) a discussion in the web page. */
    resolve(project: string, iid: number, discussionId: string, resolved: boolean): boolean {
      const discussion = list(`${project}!${iid}`).find((d) => d.id === discussionId);
      if (!discussion) return false;
      for (const n of discussion.notes) n.resolved = resolved;
      return true;
    },
    /** True when it answered a discussions endpoint of project `project`. */
    handle(project: string, method: string, segments: readonly string[], params: URLSearchParams, body: unknown, res: ServerResponse, answer: Answer): boolean {
      if (segments[2] !== 'merge_requests' || segments[4] !== 'discussions') return false;
      const key = `${project}!${Number(segments[3])}`;
      const discussions = list(key);
      const input = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
      if (segments.length === 5 && method === 'GET') {
        const perPage = Math.min(Math.max(Number(params.get('per_page') ?? 20) || 20, 1), 100);
        const page = Math.max(Number(params.get('page') ?? 1) || 1, 1);
        const pages = Math.max(Math.ceil(discussions.length / perPage), 1);
        answer(res, 200, discussions.slice((page - 1) * perPage, page * perPage).map(rest), { 'x-page': String(page), 'x-per-page': String(perPage), 'x-total': String(discussions.length), 'x-total-pages': String(pages), 'x-next-page': page < pages ? String(page + 1) : '' });
        return true;
      }
      if (segments.length === 5 && method === 'POST') {
        if (typeof input.body !== 'string' || input.body.trim() === '') {
          answer(res, 400, { message: { note: ["can't be blank"] } });
          return true;
        }
        const position = input.position;
        if (position !== undefined && (position === null || typeof position !== 'object' || positionProblem(mergeRequests.get(key), position as Record<string, unknown>))) {
          answer(res, 400, BAD_LINE);
          return true;
        }
        const id = createHash('sha1').update(`${key}:${nextNote}`).digest('hex');
        const discussion: FakeDiscussion = { id, notes: [note(input.body, position ?? null)] };
        discussions.push(discussion);
        answer(res, 201, rest(discussion));
        return true;
      }
      const discussion = discussions.find((d) => d.id === segments[5]);
      if (segments.length >= 6 && !discussion) {
        answer(res, 404, { message: '404 Discussion Not Found' });
        return true;
      }
      if (!discussion) return false;
      if (segments.length === 7 && segments[6] === 'notes' && method === 'POST') {
        if (typeof input.body !== 'string' || input.body.trim() === '') {
          answer(res, 400, { message: { note: ["can't be blank"] } });
          return true;
        }
        const added = note(input.body, null);
        discussion.notes.push(added);
        answer(res, 201, restNote(added));
        return true;
      }
      if (segments.length === 6 && method === 'GET') {
        answer(res, 200, rest(discussion));
        return true;
      }
      if (segments.length === 6 && method === 'PUT') {
        const resolved = params.get('resolved') ?? (typeof input.resolved === 'boolean' ? String(input.resolved) : undefined);
        if (resolved !== 'true' && resolved !== 'false') {
          answer(res, 400, { error: 'resolved is missing' });
          return true;
        }
        for (const n of discussion.notes) n.resolved = resolved === 'true';
        answer(res, 200, rest(discussion));
        return true;
      }
      return false;
    },
  };
}

function restNote(n: FakeDiscussionNote) {
  return { id: n.id, type: n.position ? 'DiffNote' : 'DiscussionNote', body: n.body, author: { ...n.author, name: n.author.username }, created_at: n.created_at, updated_at: n.created_at, system: false, noteable_type: 'MergeRequest', resolvable: true, resolved: n.resolved, position: n.position ?? undefined };
}

function rest(d: FakeDiscussion) {
  return { id: d.id, individual_note: false, notes: d.notes.map(restNote) };
}
