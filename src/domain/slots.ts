// The one table of model slots: the main model plus the 11 auxiliary side-jobs. The CLI, the
// dashboard, the config schema and the agent all read slot ids, names and defaults from here.

export const AUX_TASKS = [
  { id: 'vision', name: 'Vision', job: 'image analysis', timeout: 120, downloadTimeout: 30 },
  { id: 'web_extract', name: 'Web Extract', job: 'web-page summarization', timeout: 360 },
  { id: 'compression', name: 'Compression', job: 'context compression', timeout: 120 },
  { id: 'skills_hub', name: 'Skills Hub', job: 'skill search', timeout: 30 },
  { id: 'approval', name: 'Approval', job: 'approval scoring (approval_mode: smart)', timeout: 30 },
  { id: 'mcp', name: 'MCP', job: 'MCP tool routing', timeout: 30 },
  { id: 'title_generation', name: 'Title Gen', job: 'session-title generation', timeout: 30 },
  {
    id: 'triage_specifier',
    name: 'Triage Specifier',
    job: 'expands a rough one-liner into a spec',
    timeout: 120,
  },
  {
    id: 'kanban_decomposer',
    name: 'Kanban Decomposer',
    job: 'splits a triage task into child tasks',
    timeout: 180,
  },
  {
    id: 'profile_describer',
    name: 'Profile Describer',
    job: 'profile description generation',
    timeout: 60,
  },
  { id: 'curator', name: 'Curator', job: 'curator skill-usage review pass', timeout: 600 },
] as const satisfies readonly AuxTaskSpec[];

export type AuxTaskSpec = {
  readonly id: string;
  readonly name: string;
  readonly job: string;
  /** Seconds. */
  readonly timeout: number;
  /** Seconds; only the vision slot downloads images. */
  readonly downloadTimeout?: number;
};

export type AuxTaskId = (typeof AUX_TASKS)[number]['id'];

export const AUX_TASK_IDS: readonly AuxTaskId[] = AUX_TASKS.map((t) => t.id);

export function isAuxTaskId(value: string): value is AuxTaskId {
  return (AUX_TASK_IDS as readonly string[]).includes(value);
}
