import 'server-only';
import { getServerSession, type NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { SignInInput } from '@/lib/contracts/dashboard';
import { SIGN_IN_DEACTIVATED, SIGN_IN_THROTTLED } from '@/lib/contracts/dashboard-plain';
import { sameOriginPath } from '@/lib/contracts/redirect-target';
import { getDb } from './db/client';
import { findAccountByEmail, isDeactivatedCustomer, recordSignIn, type AccountRole } from './dashboard/accounts';
import { dashboardEnv } from './dashboard/config';
import { burnPasswordCheck, verifyPassword } from './dashboard/passwords';
import { allowSignInAttempt, recordFailedSignIn, resetSignInAttempts } from './dashboard/sign-in-throttle';
import { clientAddressOf } from './http/client-address';
import { sessionSecret } from './dashboard/secret';
import { isRetiredDemoAccount } from './dashboard/demo-accounts';
import { recordAudit } from './dashboard/audit';
import { log } from './logger';

declare module 'next-auth' {
  interface Session {
    user: { accountId: string; name: string; email: string; role: AccountRole };
  }
  interface User {
    role: AccountRole;
  }
}
declare module 'next-auth/jwt' {
  interface JWT {
    accountId?: string;
    role?: AccountRole;
  }
}

const SESSION_HOURS = 12;

let options: NextAuthOptions | undefined;

/**
 * Built on first use, not at import: `next build` imports route modules, and the secret (made and kept
 * under ESCROW_DATA_DIR when NEXTAUTH_SECRET is unset) belongs to the running server, not the build.
 */
export function authOptions(): NextAuthOptions {
  if (options) return options;
  const secureCookies = dashboardEnv().NEXTAUTH_URL?.startsWith('https://') ?? false;
  options = {
    secret: sessionSecret(),
    session: { strategy: 'jwt', maxAge: SESSION_HOURS * 3600 },
    useSecureCookies: secureCookies,
    pages: { signIn: '/login', error: '/login' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials, req) {
          const parsed = SignInInput.safeParse(credentials);
          if (!parsed.success) return null;
          const { email, password } = parsed.data;
          const address = clientAddressOf(req.headers ?? {});
          const db = await getDb();
          // Thrown, not null: next-auth passes the message on as the error the sign-in form shows.
          if (!(await allowSignInAttempt(db, email, address))) throw new Error(SIGN_IN_THROTTLED);
          const account = await findAccountByEmail(db, email);
          const ok = account?.passwordHash ? await verifyPassword(password, account.passwordHash) : await burnPasswordCheck(password);
          if (!account || !ok) {
            await recordFailedSignIn(db, email, address);
            return null;
          }
          await resetSignInAttempts(db, email, address);
          if (account.removedAt) return null; // removed from the team
          if (await isRetiredDemoAccount(db, account)) return null; // a published password (docs/decisions.md §14)
          if (await isDeactivatedCustomer(db, account)) throw new Error(SIGN_IN_DEACTIVATED);
          const now = new Date();
          await recordSignIn(db, account.id, now);
          // Staff sign-ins are audited (docs/decisions.md §14); a customer's are its own business.
          if (account.role !== 'customer') {
            const actor = { accountId: account.id, email: account.email, role: account.role, clientId: account.clientId };
            await recordAudit(db, { actor, action: 'sign_in', address, now });
          }
          return { id: account.id, name: account.name, email: account.email, role: account.role };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.accountId = user.id;
          token.role = user.role;
        }
        return token;
      },
      session({ session, token }) {
        if (token.accountId && token.role) {
          session.user = { accountId: token.accountId, role: token.role, name: token.name ?? '', email: token.email ?? '' };
        }
        return session;
      },
      // Paths of this origin only: without NEXTAUTH_URL next-auth does not know this server's origin, so an
      // absolute URL keeps just its path, and `/\host`-style paths that browsers read as another host go home.
      redirect({ url }) {
        let target = url;
        try {
          const absolute = new URL(url);
          target = `${absolute.pathname}${absolute.search}`;
        } catch {
          // relative: judged as it is
        }
        return sameOriginPath(target);
      },
    },
    logger: {
      error: (code, metadata) => log.error({ msg: 'next-auth', code, metadata: String(metadata) }),
      // NEXTAUTH_URL is optional here (the sign-in form follows relative URLs), so its warning is noise.
      warn: (code) => {
        if (code !== 'NEXTAUTH_URL') log.warn({ msg: 'next-auth', code });
      },
      debug: () => {},
    },
  };
  return options;
}

export async function getSession() {
  return getServerSession(authOptions());
}
