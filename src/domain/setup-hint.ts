// What every "not configured" message tells a new user to run: `iris setup` first (it stores the
// key too), then the one-line command for someone who has a key already.
export const SET_UP_MODEL = 'run iris setup (or iris model set <provider> <model>)';

/** The message of every refusal for want of a main model. */
export const NO_MAIN_MODEL = `no main model is configured (model: ''); ${SET_UP_MODEL}`;
