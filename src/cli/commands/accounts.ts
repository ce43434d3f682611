// `siteline accounts create|list|set-password`: the people who own API keys and see projects.
import { createAccount, listAccounts, requireAccountByEmail, setAccountPassword } from '../../store/accounts-repository.ts';
import { appendAudit } from '../../store/audit-repository.ts';
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
    usage: 'create --email <email> --name <name> [--password <pw> | --password-stdin] [--json]',
    async run(args, io) {
      const { values } = parseCommandArgs(args, { email: { type: 'string' }, name: { type: 'string' }, ...PASSWORD_OPTIONS });
      const email = requireOption(values.email, '--email');
      const name = requireOption(values.name, '--name');
      const password = await readPassword(io, values);
      return withStore(io, async ({ store }) => {
        const account = await createAccount(store.db, { email, name, password });
        await appendAudit(store.db, { accountId: account.id, action: 'account.create', subject: account.id, detail: { via: 'cli' } });
        if (values.json) writeJson(io, { account });
        else io.stdout.write(`Created account ${account.email} (${account.id})${account.hasPassword ? '' : ' without a password'}.\n`);
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
        await setAccountPassword(store.db, account.id, password);
        await appendAudit(store.db, { accountId: account.id, action: 'account.set_password', subject: account.id, detail: { via: 'cli' } });
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
