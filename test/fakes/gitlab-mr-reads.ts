// The fake GitLab's read-only merge-request endpoints (gitlab-api.ts routes to them): what a review
// reads before its run. Seeded by tests with setMergeRequest and setFile.
//
//   GET projects/:id/merge_requests/:iid            the MR: title, draft, author, source/target branch,
//                                                   sha, diff_refs {base_sha, head_sha, start_sha}
//   GET projects/:id/merge_requests/:iid/diffs      its files, in pages (per_page default 20, at most
//                                                   100) with X-Page, X-Per-Page, X-Total, X-Total-Pages,
//                                                   X-Prev-Page and X-Next-Page (empty on the last page)
//   GET projects/:id/merge_requests/:iid/changes    the MR with `changes` (the older, deprecated form)
//   GET projects/:id/repository/files/:path/raw?ref= the file's text (text/plain); the path is one
//                                                   URL-encoded segment; no such file or ref → 404
//                                                   {"message":"404 File Not Found"}, no ref → 400
// An MR that was not seeded is 404 {"message":"404 Not found"}.
import type { ServerResponse } from 'node:http';

export type FakeMrFile = {
  readonly old_path: string;
  readonly new_path: string;
  readonly diff: string;
  readonly new_file?: boolean;
  readonly renamed_file?: boolean;
  readonly deleted_file?: boolean;
};

export type FakeMergeRequest = {
  readonly title: string;
  readonly draft?: boolean;
  readonly author?: { readonly id: number; readonly username: string };
  readonly source_branch?: string;
  readonly target_branch?: string;
  readonly diff_refs: { readonly base_sha: string; readonly head_sha: string; readonly start_sha: string } | null;
  readonly files: readonly FakeMrFile[];
};

type Answer = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;

export function mergeRequestReads() {
  const mergeRequests = new Map<string, FakeMergeRequest>();
  const files = new Map<string, Map<string, Map<string, string>>>();

  const restMergeRequest = (iid: number, mr: FakeMergeRequest) => ({
    id: 10_000 + iid,
    iid,
    title: mr.title,
    state: 'opened',
    draft: mr.draft ?? false,
    work_in_progress: mr.draft ?? false,
    author: { id: mr.author?.id ?? 7, username: mr.author?.username ?? 'alice', name: mr.author?.username ?? 'alice', state: 'active' },
    source_branch: mr.source_branch ?? 'fix',
    target_branch: mr.target_branch ?? 'main',
    sha: mr.diff_refs?.head_sha ?? null,
    diff_refs: mr.diff_refs,
  });
  const restFile = (file: FakeMrFile) => ({
    old_path: file.old_path,
    new_path: file.new_path,
    a_mode: file.new_file ? '0' : '100644',
    b_mode: file.deleted_file ? '0' : '100644',
    diff: file.diff,
    new_file: file.new_file ?? false,
    renamed_file: file.renamed_file ?? false,
    deleted_file: file.deleted_file ?? false,
    generated_file: false,
  });

  return {
    setMergeRequest(project: string, iid: number, mr: FakeMergeRequest) {
      mergeRequests.set(`${project}!${iid}`, mr);
    },
    setFile(project: string, ref: string, path: string, text: string) {
      const refs = files.get(project) ?? new Map<string, Map<string, string>>();
      files.set(project, refs);
      const atRef = refs.get(ref) ?? new Map<string, string>();
      refs.set(ref, atRef);
      atRef.set(path, text);
    },
    /** True when it answered: a GET of one of the endpoints above, for the project `project`. */
    handle(project: string, method: string, segments: readonly string[], params: URLSearchParams, res: ServerResponse, answer: Answer): boolean {
      if (method !== 'GET') return false;
      if (segments[2] === 'repository' && segments[3] === 'files' && segments.length === 6 && segments[5] === 'raw') {
        const ref = params.get('ref');
        if (ref === null || ref === '') {
          answer(res, 400, { error: 'ref is missing' });
          return true;
        }
        const text = files.get(project)?.get(ref)?.get(decodeURIComponent(segments[4] ?? ''));
        if (text === undefined) answer(res, 404, { message: '404 File Not Found' });
        else {
          res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(text);
        }
        return true;
      }
      if (segments[2] !== 'merge_requests' || !/^\d+$/.test(segments[3] ?? '') || segments.length > 5) return false;
      const iid = Number(segments[3]);
      const what = segments[4];
      if (what !== undefined && what !== 'diffs' && what !== 'changes') return false;
      const mr = mergeRequests.get(`${project}!${iid}`);
      if (!mr) {
        answer(res, 404, { message: '404 Not found' });
        return true;
      }
      if (what === undefined) answer(res, 200, restMergeRequest(iid, mr));
      else if (what === 'changes') answer(res, 200, { ...restMergeRequest(iid, mr), changes: mr.files.map(restFile), overflow: false });
      else {
        const perPage = Math.min(Math.max(Number(params.get('per_page') ?? 20) || 20, 1), 100);
        const page = Math.max(Number(params.get('page') ?? 1) || 1, 1);
        const totalPages = Math.max(Math.ceil(mr.files.length / perPage), 1);
        answer(res, 200, mr.files.slice((page - 1) * perPage, page * perPage).map(restFile), {
          'x-page': String(page),
          'x-per-page': String(perPage),
          'x-total': String(mr.files.length),
          'x-total-pages': String(totalPages),
          'x-prev-page': page > 1 ? String(page - 1) : '',
          'x-next-page': page < totalPages ? String(page + 1) : '',
        });
      }
      return true;
    },
  };
}
