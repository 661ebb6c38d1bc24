// `iris gateway [run]|start|stop|restart|status|install-service`: the declarations only; a command's code loads when it runs.
import { Option, type Command } from 'commander';
import { DEFAULT_GATEWAY_ROLE, GATEWAY_ROLES, type GatewayRole } from '../../domain/gateway-role.js';
import type { SetExitCode } from '../command-group.js';

export function registerGateway(program: Command, setExit: SetExitCode): void {
  const gateway = program
    .command('gateway')
    .description('the gateway that turns signed webhooks into agent runs: run it here, or start/stop it in the background')
    .action(async () => {
      const { gatewayRun } = await import('../commands/gateway.js');
      setExit(await gatewayRun());
    })
    .exitOverride();
  gateway
    .command('run')
    .description('run the gateway in the foreground until Ctrl-C or SIGTERM (same as plain iris gateway)')
    .addOption(
      new Option('--role <role>', 'listener: take webhooks and chat messages in and store them; worker: run, deliver and answer them; all: both (docs/webhooks.md)')
        .choices(GATEWAY_ROLES)
        .default(DEFAULT_GATEWAY_ROLE),
    )
    .action(async (options: { role: GatewayRole }) => {
      const { gatewayRun } = await import('../commands/gateway.js');
      setExit(await gatewayRun({ role: options.role }));
    });
  gateway
    .command('start')
    .description('start the gateway in the background (pid in $IRIS_HOME/gateway.pid, output in logs/gateway.console.log)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const { gatewayStart } = await import('../commands/gateway.js');
      setExit(await gatewayStart(options));
    });
  gateway
    .command('stop')
    .description('stop the background gateway (runs in flight stop at a safe point; the inbox keeps the rest)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const { gatewayStop } = await import('../commands/gateway.js');
      setExit(await gatewayStop(options));
    });
  gateway
    .command('restart')
    .description('stop and start the background gateway, so it reads config.yaml again')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const { gatewayRestart } = await import('../commands/gateway.js');
      setExit(await gatewayRestart(options));
    });
  gateway
    .command('status')
    .description('is the gateway running and answering? (exit code 0 when running, 1 when not)')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { gatewayStatusCommand } = await import('../commands/gateway.js');
      setExit(await gatewayStatusCommand(options));
    });
  gateway
    .command('install-service')
    .description('write a systemd unit that runs the gateway as a service (system-wide, needs root; or --user), and print the commands that start it')
    .option('--user', 'a user service in $XDG_CONFIG_HOME/systemd/user instead of /etc/systemd/system')
    .option('--print', 'print the unit on stdout and write nothing')
    .option('--force', 'replace an existing unit that differs')
    .option('--json', 'print the result as JSON')
    .action(async (options: { user?: boolean; print?: boolean; force?: boolean; json?: boolean }) => {
      const { gatewayInstallService } = await import('../commands/gateway-service.js');
      setExit(await gatewayInstallService(options));
    });

}
