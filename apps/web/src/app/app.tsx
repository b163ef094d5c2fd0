import { lazy, Suspense } from 'react';
// In the entry, not lazy (and built from plain form elements, so it adds little): the login form
// paints with the first render instead of after a spinner and another round of chunks.
import LoginPage from '../features/login/login-page.tsx';
import { matchPath, Navigate, Route, useLocation } from '../shared/router.tsx';
import { AppLayout, PageLoading } from './layout.tsx';
import { Providers } from './providers.tsx';
import { RoleGate } from './role-gate.tsx';
import { screens } from './routes.tsx';

const SetupPage = lazy(() => import('../features/setup/setup-page.tsx'));

const HOME = '/course/calendar';

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
  // `/` and any unknown path go to the calendar (inside the frame, which asks for a login first).
  return <Navigate to={HOME} replace />;
}

/** The web app: providers around the routes. */
export function App() {
  return (
    <Providers>
      <Routes />
    </Providers>
  );
}
