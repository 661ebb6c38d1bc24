// The docs cannot drift from the code: every chat platform, every auxiliary slot and every command
// the code registers appears in the pages that list them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_PLATFORMS } from '../../src/domain/platforms.js';
import { AUX_TASKS } from '../../src/domain/slots.js';
import { documentedCommands, rowsFor, walkCommands } from '../helpers/command-tree.js';
import { makeTempDir, removeDir, REPO_ROOT, runIris } from '../helpers/iris.js';

const page = (name: string) => readFile(join(REPO_ROOT, name), 'utf8');
const PLATFORM_NAMES: Readonly<Record<string, string>> = { telegram: 'Telegram', discord: 'Discord', slack: 'Slack', signal: 'Signal', sms: 'SMS' };

let home: string;
let dir: string;
beforeAll(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
});
afterAll(() => removeDir(dir));

describe('docs drift', () => {
  it.each([...CHAT_PLATFORMS])('the %s platform is in every page that lists the platforms', async (platform) => {
    const readme = await page('README.md');
    // The status paragraph and the configuration paragraph each name every platform.
    for (const paragraph of [readme.split('\n## ')[0] ?? '', readme.slice(readme.indexOf('Chat platforms ('))]) expect(paragraph).toContain(PLATFORM_NAMES[platform]);
    expect(await page('docs/platforms.md')).toContain(`\`${platform}\``);
    expect(await page('docs/configuration.md')).toContain(`platforms.${platform}`);
    expect(await page('docs/doctor.md')).toContain(`\`${platform}\``);
    expect(/^- `telegram`.*$/m.exec(await page('docs/webhooks.md'))?.[0]).toContain(`\`${platform}\``);
    expect(await page('docs/cli.md')).toMatch(new RegExp(`--deliver log\\\\\\|forge_comment[^\\]]*\\b${platform}\\b`));
    expect((await runIris(['webhook', 'subscribe', '--help'], { home })).stdout.replace(/\s+/g, ' ')).toMatch(new RegExp(`--deliver <target>.*\\b${platform}\\b`));
  });

  it('no page says a shipped platform is not available', async () => {
    for (const name of ['README.md', 'docs/webhooks.md', 'docs/doctor.md']) {
      expect(await page(name)).not.toMatch(/Discord is next|`discord`: not\s+available|not in this version/);
    }
  });

  it.each(AUX_TASKS.map((task) => task.id))('the %s slot is in docs/routing.md and docs/configuration.md', async (slot) => {
    expect(await page('docs/routing.md')).toContain(slot);
    expect(await page('docs/configuration.md')).toContain(slot);
  });

  it('every command iris --help reaches is in docs/cli.md', { timeout: 60_000 }, async () => {
    const documented = await documentedCommands();
    const missing = [...(await walkCommands(home)).keys()].filter((path) => rowsFor(documented, path).length === 0 && !documented.some(({ command }) => command.startsWith(`iris ${path} `)));
    expect(missing).toEqual([]);
  });

  it("the README's section of commands counts them right", async () => {
    const readme = await page('README.md');
    const section = readme.slice(readme.indexOf('\n## Two commands'));
    const start = section.indexOf('```sh\n') + '```sh\n'.length;
    const block = section.slice(start, section.indexOf('\n```', start));
    expect(block.split('\n').filter((line) => line.trim() && !line.startsWith('#'))).toHaveLength(2);
  });
});
