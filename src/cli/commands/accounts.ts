// `siteline accounts create|list|set-password`: the people who own API keys and see projects.
import { listAccounts, requireAccountByEmail } from '../../store/accounts-repository.ts';
import { OPERATOR } from '../../writes/actor.ts';
import { createAccountAsOperator, setPassword } from '../../writes/account-writes.ts';
import type { CliIO } from '../cli-io.ts';
import { withStore } from '../open-store.ts';
import { parseCommandArgs, readStdin, requireOption, runSubcommands, UsageError, writeJson, writeTable } from '../output.ts';
import type { Subcommand } from '../output.ts';

export const summary = 'Create and list accounts; set their passwords.';

const PASSWORD_OPTIONS = { password: { type: 'string' }, 'password-stdin': { type: 'boolean' } } as const;

async function readPassword(io: CliIO, values: { password?: string | undefined; 'password-stdin'?: boolean | undefined }): Promise<string | undefined> {
  if (values.password !== undefined && values['password-stdin']) throw new UsageError('use either --password or --password-stdin');
  if (values['password-stdin']) return (await readStdin(io)).replace(/\r?\n$/, '');
  return values.password;
}

const SUBCOMMANDS: Record<string, Subcommand> = {
  create: {
    usage: 'create --email <email> --name <name> [--password <pw> | --password-stdin] [--owner] [--json]',
    async run(args, io) {
      const { values } = parseCommandArgs(args, { email: { type: 'string' }, name: { type: 'string' }, owner: { type: 'boolean' }, ...PASSWORD_OPTIONS });
      const email = requireOption(values.email, '--email');
      const name = requireOption(values.name, '--name');
      const password = await readPassword(io, values);
      return withStore(io, async ({ store }) => {
        // --owner: the installation's owner (with SIGNUP=closed the only way to one; /setup is closed then).
        const owner = values.owner === true;
        const account = await createAccountAsOperator({ db: store.db, clock: () => new Date() }, OPERATOR, { email, name, password, owner });
        if (values.json) writeJson(io, { account: { ...account, owner } });
        else io.stdout.write(`Created ${owner ? 'the owner account' : 'account'} ${account.email} (${account.id})${account.hasPassword ? '' : ' without a password'}.\n`);
        return 0;
      });
    },
  },
  list: {
    usage: 'list [--json]',
    async run(args, io) {
      const { values } = parseCommandArgs(args, {});
      return withStore(io, async ({ store }) => {
        const accounts = await listAccounts(store.db);
        if (values.json) writeJson(io, { accounts });
        else writeTable(io, accounts.map((a) => ({ ...a, password: a.hasPassword ? 'yes' : 'no' })), [['email', 'email'], ['name', 'name'], ['id', 'id'], ['password', 'password'], ['createdAt', 'created']]);
        return 0;
      });
    },
  },
  'set-password': {
    usage: 'set-password --email <email> (--password <pw> | --password-stdin) [--json]',
    async run(args, io) {
      const { values } = parseCommandArgs(args, { email: { type: 'string' }, ...PASSWORD_OPTIONS });
      const email = requireOption(values.email, '--email');
      const password = await readPassword(io, values);
      if (password === undefined) throw new UsageError('--password or --password-stdin is required');
      return withStore(io, async ({ store }) => {
        const account = await requireAccountByEmail(store.db, email);
        await setPassword({ db: store.db, clock: () => new Date() }, OPERATOR, account.id, password);
        if (values.json) writeJson(io, { account: { ...account, hasPassword: true } });
        else io.stdout.write(`Password set for ${account.email}.\n`);
        return 0;
      });
    },
  },
};

export function run(args: string[], io: CliIO): Promise<number> {
  return runSubcommands('accounts', SUBCOMMANDS, args, io);
}
