import { HttpClient, provideHttpClient, withInterceptors } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { firstValueFrom } from 'rxjs';
import { ApiKey } from './api-key';
import { authInterceptor } from './auth-interceptor';
import { Navigator } from './routing/navigator';

describe('authInterceptor', () => {
  let http: HttpClient;
  let controller: HttpTestingController;

  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
    TestBed.configureTestingModule({
      providers: [
        provideHttpClient(withInterceptors([authInterceptor])),
        provideHttpClientTesting(),
      ],
    });
    TestBed.inject(ApiKey).use('secret-key');
    http = TestBed.inject(HttpClient);
    controller = TestBed.inject(HttpTestingController);
  });

  afterEach(() => controller.verify());

  it('adds the bearer key to /api calls only', () => {
    void firstValueFrom(http.get('/api/sessions'));
    void firstValueFrom(http.get('/assets/x.json'));
    expect(controller.expectOne('/api/sessions').request.headers.get('Authorization')).toBe(
      'Bearer secret-key',
    );
    expect(controller.expectOne('/assets/x.json').request.headers.has('Authorization')).toBe(false);
  });

  it('sends the person to the key page on 401 and marks the key rejected', async () => {
    const navigator = TestBed.inject(Navigator);
    vi.spyOn(navigator, 'url').mockReturnValue('/');
    const navigate = vi.spyOn(navigator, 'navigate').mockResolvedValue(true);
    const request = firstValueFrom(http.get('/api/sessions')).catch((error: unknown) => error);
    controller
      .expectOne('/api/sessions')
      .flush(
        { error_code: 'unauthorized', message: 'no' },
        { status: 401, statusText: 'Unauthorized' },
      );
    await request;
    expect(TestBed.inject(ApiKey).rejected()).toBe(true);
    expect(navigate).toHaveBeenCalledWith('/key', {});
  });

  it('brings the person back to the page they were on after the key page', async () => {
    const navigator = TestBed.inject(Navigator);
    vi.spyOn(navigator, 'url').mockReturnValue('/sessions/ses_42');
    const navigate = vi.spyOn(navigator, 'navigate').mockResolvedValue(true);
    const request = firstValueFrom(http.get('/api/sessions')).catch((error: unknown) => error);
    controller
      .expectOne('/api/sessions')
      .flush({ error_code: 'unauthorized', message: 'no' }, { status: 401, statusText: 'No' });
    await request;
    expect(navigate).toHaveBeenCalledWith('/key', { next: '/sessions/ses_42' });
  });

  it('names the console as the app, so the audit says who changed the rules', () => {
    void firstValueFrom(http.put('/api/rules', {}));
    expect(controller.expectOne('/api/rules').request.headers.get('X-Relais-App')).toBe('console');
  });
});
