import { useSelector } from '@xstate/react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { selectAccess } from '../app/selectors';

/**
 * Guards member pages: without a session the member goes to /login and comes back after sign-in; with only a
 * temporary token (no recommender yet) to /register.
 */
export function MemberArea() {
  const { auth } = useRootActors();
  const access = useSelector(auth, selectAccess);
  const location = useLocation();
  const from = `${location.pathname}${location.search}`;
  if (access === 'none') return <Navigate to={paths.login.href()} replace state={{ from }} />;
  if (access === 'temporary') return <Navigate to={paths.register.href()} replace state={{ from }} />;
  return <Outlet />;
}
