import { routes } from '../../app.routes';
import { matchRoute } from './page-route';

describe('matchRoute', () => {
  it('finds each page of the console, fixed paths before a :segment', () => {
    expect(matchRoute(routes, ['sessions'])?.route.path).toBe('sessions');
    expect(matchRoute(routes, ['sessions', 'new'])?.route.path).toBe('sessions/new');
    const conversation = matchRoute(routes, ['sessions', 'ses_1']);
    expect(conversation?.route.path).toBe('sessions/:id');
    expect(conversation?.params).toEqual({ id: 'ses_1' });
  });

  it('matches whole paths only, and by case', () => {
    expect(matchRoute(routes, [])).toBeNull();
    expect(matchRoute(routes, ['sessions', 'ses_1', 'more'])).toBeNull();
    expect(matchRoute(routes, ['Sessions'])).toBeNull();
    expect(matchRoute(routes, ['nowhere'])).toBeNull();
  });

  it('asks for the key on every page but the key page', () => {
    expect(routes.filter((route) => !route.needsKey).map((route) => route.path)).toEqual(['key']);
  });
});
