import { lazy, Suspense } from 'react';
// In the entry, not lazy (and built from plain form elements, so it adds little): the login form
// paints with the first render instead of after a spinner and another round of chunks.
import LoginPage from '../features/login/login-page.tsx';
import { matchPath, Navigate, Route, useLocation } from '../shared/router.tsx';
import { DEFAULT_HOME, landingPath, useProfile } from '../shared/profile.ts';
import { AppLayout, PageLoading } from './layout.tsx';
import { Providers } from './providers.tsx';
import { RoleGate } from './role-gate.tsx';
import { screens } from './routes.tsx';

const SetupPage = lazy(() => import('../features/setup/setup-page.tsx'));

/**
 * `/`: the staff member's own landing (今日 for the desk and teachers, a manager where they last
 * were); nobody logged in goes to the login page, which lands them there afterwards.
 */
function Home() {
  const { data: profile, isPending } = useProfile();
  if (isPending) return <PageLoading />;
  return <Navigate to={profile ? landingPath(profile) : '/login'} replace />;
}

/** Picks the screen of the current path: login, first-run setup, or a screen inside the frame. */
function Routes() {
  const { pathname } = useLocation();
  if (matchPath('/login', pathname)) return <LoginPage />;
  if (matchPath('/setup', pathname))
    return (
      <Suspense fallback={<PageLoading />}>
        <SetupPage />
      </Suspense>
    );
  for (const { path, Component, roles } of screens) {
    const match = matchPath(path, pathname);
    if (match)
      return (
        <Route
          params={match.params}
          outlet={
            <RoleGate roles={roles}>
              <Component />
            </RoleGate>
          }
        >
          <AppLayout />
        </Route>
      );
  }
  if (pathname === '/') return <Home />;
  // An unknown path goes to the calendar (inside the frame, which asks for a login first).
  return <Navigate to={DEFAULT_HOME} replace />;
}

/** The web app: providers around the routes. */
export function App() {
  return (
    <Providers>
      <Routes />
    </Providers>
  );
}
