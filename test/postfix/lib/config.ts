import path from 'node:path';

/** Where one instance keeps everything, all under its own directory. */
export interface PostfixLayout {
  dir: string;
  configDir: string;
  queueDir: string;
  dataDir: string;
  mailboxDir: string;
  logPath: string;
}

export function layoutOf(dir: string): PostfixLayout {
  return {
    dir,
    configDir: path.join(dir, 'etc'),
    queueDir: path.join(dir, 'spool'),
    dataDir: path.join(dir, 'data'),
    mailboxDir: path.join(dir, 'mailboxes'),
    logPath: path.join(dir, 'maillog'),
  };
}

export const HOSTNAME = 'mta.workyard.test';
export const LISTEN_HOST = '127.0.0.1';
/**
 * Owner of the delivered mail files: virtual(8) refuses uid 0 (virtual_minimum_uid ≥ 1). `nobody` exists on every
 * Debian system; the tests read the files as root.
 */
export const MAILBOX_UID = 65534;

export interface PostfixSettings {
  port: number;
  /** The domain with mailboxes, and its users (local parts). */
  mailboxDomain: string;
  users: string[];
  /** domain → Postfix transport (`smtp:[127.0.0.1]:2600`, `error:5.1.1 …`, `retry:4.4.1 …`). */
  routes: Record<string, string>;
  /** main.cf parameters that override the defaults below. */
  main: Record<string, string>;
}

const tableFile = (layout: PostfixLayout, name: string) => path.join(layout.configDir, name);

/** The lookup tables, as files: `texthash:` reads them as they are (no postmap, no Berkeley DB). */
export function tablesOf(layout: PostfixLayout, settings: PostfixSettings): Record<string, string> {
  const lines = (rows: Array<[string, string]>) => rows.map(([key, value]) => `${key} ${value}\n`).join('');
  return {
    [tableFile(layout, 'mailboxes')]: lines(settings.users.map((user) => [`${user}@${settings.mailboxDomain}`, `${user}/`])),
    [tableFile(layout, 'transport')]: lines(Object.entries(settings.routes)),
    // Unknown users are refused at RCPT only in the mailbox domain: smtpd_reject_unlisted_recipient would also refuse
    // every address routed to error:/retry: there, and those are meant to be accepted and then bounced or delayed.
    [tableFile(layout, 'recipient_access')]: lines([[settings.mailboxDomain, 'reject_unlisted_recipient']]),
  };
}

function mainDefaults(layout: PostfixLayout, settings: PostfixSettings): Record<string, string> {
  return {
    compatibility_level: '3.6',
    queue_directory: layout.queueDir,
    data_directory: layout.dataDir,
    maillog_file: layout.logPath,
    maillog_file_prefixes: layout.dir,
    inet_interfaces: LISTEN_HOST,
    inet_protocols: 'ipv4',
    myhostname: HOSTNAME,
    mydomain: 'workyard.test',
    mydestination: '',
    mynetworks: '127.0.0.0/8',
    relay_domains: '',
    alias_maps: '',
    alias_database: '',
    biff: 'no',
    // Nothing leaves the machine: no local delivery, no DNS, every domain without a route bounces.
    local_transport: 'error:5.1.1 local delivery is off in this instance',
    default_transport: 'error:5.4.4 this instance delivers to no other domain',
    smtp_dns_support_level: 'disabled',
    smtpd_peername_lookup: 'no',
    smtpd_reject_unlisted_recipient: 'no',
    smtpd_recipient_restrictions: `check_recipient_access texthash:${tableFile(layout, 'recipient_access')}, permit_mynetworks, reject_unauth_destination`,
    virtual_mailbox_domains: settings.mailboxDomain,
    virtual_mailbox_base: layout.mailboxDir,
    virtual_mailbox_maps: `texthash:${tableFile(layout, 'mailboxes')}`,
    virtual_uid_maps: `static:${MAILBOX_UID}`,
    virtual_gid_maps: `static:${MAILBOX_UID}`,
    transport_maps: `texthash:${tableFile(layout, 'transport')}`,
    // Test timings: deferred mail is retried every second or two.
    queue_run_delay: '1s',
    minimal_backoff_time: '1s',
    maximal_backoff_time: '2s',
    smtp_connect_timeout: '5s',
    delay_warning_time: '0h',
  };
}

export function mainCf(layout: PostfixLayout, settings: PostfixSettings): string {
  const params = { ...mainDefaults(layout, settings), ...settings.main };
  const header = '# Written by test/postfix/launcher.ts: a private Postfix instance on loopback for tests.\n';
  return (
    header +
    Object.entries(params)
      .map(([name, value]) => `${name} = ${value}\n`)
      .join('')
  );
}

// No chroot (the queue directory is a temp dir without the files a chroot needs); postlog writes maillog_file.
const SERVICES = [
  'pickup    unix  n - n 60    1 pickup',
  'cleanup   unix  n - n -     0 cleanup',
  'qmgr      unix  n - n 300   1 qmgr',
  'rewrite   unix  - - n -     - trivial-rewrite',
  'bounce    unix  - - n -     0 bounce',
  'defer     unix  - - n -     0 bounce',
  'trace     unix  - - n -     0 bounce',
  'verify    unix  - - n -     1 verify',
  'flush     unix  n - n 1000? 0 flush',
  'proxymap  unix  - - n -     - proxymap',
  'smtp      unix  - - n -     - smtp',
  'relay     unix  - - n -     - smtp',
  'showq     unix  n - n -     - showq',
  'error     unix  - - n -     - error',
  'retry     unix  - - n -     - error',
  'discard   unix  - - n -     - discard',
  'virtual   unix  - n n -     - virtual',
  'anvil     unix  - - n -     1 anvil',
  'scache    unix  - - n -     1 scache',
  'postlog   unix-dgram n - n - 1 postlogd',
];

export function masterCf(port: number): string {
  return [`${LISTEN_HOST}:${port} inet n - n - - smtpd`, ...SERVICES].join('\n') + '\n';
}
