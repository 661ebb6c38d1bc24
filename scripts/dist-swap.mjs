// Where a build goes and how it replaces the last one, so a command run during `npm run build`
// sees the old build or the new one, never none (scripts/build.mjs).
//
// dist is a symbolic link to a build folder, .builds/<id>/dist. A build writes a new folder
// (.builds/<id>.partial/dist), renames it complete (.builds/<id>), then points a new link at it
// and renames the link over dist: one rename, atomic. bin/iris resolves dist once per run, so a
// run keeps the build it started with. The build before the current one is kept (a command that
// started on it may still be reading its bundle); older ones are removed, and so are the partial
// folders of builds that died. The inputs' hash, written into each build, lets an unchanged
// source tree skip the build.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const BUILDS = '.builds';
const INPUTS_FILE = 'build-inputs.sha256';

/** Every file under dir, recursively, as paths relative to root, sorted. */
function filesUnder(root, dir) {
  const found = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(root, path));
    else if (entry.isFile()) found.push(path);
  }
  return found.sort();
}

/** The hash of what a build is made from: the sources but tests, the build scripts, the package files, the flags. */
export function inputsHash(root, env = process.env) {
  const hash = createHash('sha256');
  const files = [
    ...filesUnder(root, 'src').filter((file) => !/\.test\.tsx?$/.test(file)),
    'scripts/build.mjs',
    'scripts/dist-swap.mjs',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
  ];
  for (const file of files) {
    hash.update(`${file}\0`);
    try {
      hash.update(readFileSync(join(root, file)));
    } catch {
      hash.update('(missing)');
    }
    hash.update('\0');
  }
  hash.update(`IRIS_NO_MINIFY=${env.IRIS_NO_MINIFY === '1' ? '1' : ''}`);
  return hash.digest('hex');
}

/** The hash the current build (dist) was made from, or undefined when there is none or it is incomplete. */
export function currentInputsHash(root) {
  try {
    if (!existsSync(join(root, 'dist', 'launch.cjs'))) return undefined;
    return readFileSync(join(root, 'dist', INPUTS_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** A fresh folder for a build: the partial folder, and the name it takes once complete. */
export function startBuild(root, now = Date.now(), pid = process.pid) {
  const id = `${now.toString(36)}-${pid}`;
  const partial = join(root, BUILDS, `${id}.partial`);
  mkdirSync(join(partial, 'dist'), { recursive: true });
  return { id, partial, outDir: join(partial, 'dist'), complete: join(root, BUILDS, id) };
}

/** Marks a build complete (its inputs' hash inside it) and swaps it in for dist with one rename. */
export function finishBuild(root, build, hash) {
  writeFileSync(join(build.outDir, INPUTS_FILE), `${hash}\n`);
  renameSync(build.partial, build.complete);
  const dist = join(root, 'dist');
  let previous = linkTarget(dist);
  if (previous === undefined && exists(dist)) {
    // A dist from before builds were swapped in (a real folder): moved aside, once. A command in
    // the moment between the two renames finds no build; every build after this one swaps.
    const legacy = join(root, BUILDS, `legacy-${build.id}`);
    mkdirSync(legacy, { recursive: true });
    renameSync(dist, join(legacy, 'dist'));
    previous = join(BUILDS, `legacy-${build.id}`, 'dist');
  }
  const link = join(root, `dist.${build.id}.link`);
  symlinkSync(relative(root, join(build.complete, 'dist')), link);
  renameSync(link, dist);
  removeOldBuilds(root, build.id, previous);
}

/** Removes a failed build's folder. */
export function abandonBuild(build) {
  rmSync(build.partial, { recursive: true, force: true });
}

/**
 * Which build folders to remove: every complete one but the current and the previous, and every
 * partial one whose builder is gone. Pure: the folder names in, the names to remove out.
 */
export function buildsToRemove(names, current, previous, isAlive) {
  return names.filter((name) => {
    const partial = /^[0-9a-z]+-(\d+)\.partial$/.exec(name);
    if (partial) return !isAlive(Number(partial[1]));
    return name !== current && name !== previous;
  });
}

function removeOldBuilds(root, current, previousTarget) {
  // The link says .builds/<name>/dist: the folder's name is the second part.
  const previous = previousTarget?.split(/[\\/]/)[1];
  const names = readdirSync(join(root, BUILDS));
  for (const name of buildsToRemove(names, current, previous, processAlive)) rmSync(join(root, BUILDS, name), { recursive: true, force: true });
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function linkTarget(path) {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

function exists(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
