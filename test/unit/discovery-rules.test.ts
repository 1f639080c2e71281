import * as assert from 'node:assert/strict';
import {
  DEFAULT_DISCOVERY_OPTIONS,
  isEligiblePath,
  resolveDiscoveryOptions,
  type DiscoveryOptions,
} from '../../src/core/discovery';
import { LANGUAGES_BY_FILENAME, LANGUAGES_BY_SUFFIX } from '../../src/core/languages';
import { checkAll } from './check';

const reasonOf = (options: DiscoveryOptions) => (p: string) => isEligiblePath(p, options).reason ?? 'eligible';

describe('discovery rules', () => {
  describe('isEligiblePath with default options', () => {
    const defaults = resolveDiscoveryOptions();
    checkAll(
      [
        // allow-list by suffix, case-insensitive
        { input: 'src/a.ts', expected: 'eligible' },
        { input: 'src/App.TSX', expected: 'eligible' },
        { input: 'docs/naïve café.md', expected: 'eligible' },
        { input: 'src/my file.ts', expected: 'eligible' },
        { input: '.eslintrc.json', expected: 'eligible' },
        { input: 'x.unknownext', expected: 'not-allowed' },
        { input: 'image.png', expected: 'not-allowed' },
        { input: '.bashrc', expected: 'not-allowed' },
        // well-known file names, case-insensitive
        { input: 'Dockerfile', expected: 'eligible' },
        { input: 'sub/makefile', expected: 'eligible' },
        { input: 'LICENSE', expected: 'eligible' },
        { input: 'README', expected: 'eligible' },
        { input: 'Gemfile', expected: 'eligible' },
        { input: 'Rakefile', expected: 'eligible' },
        { input: 'Procfile', expected: 'eligible' },
        { input: 'ci/Jenkinsfile', expected: 'eligible' },
        { input: 'BUILD', expected: 'eligible' },
        // excluded directory segments, anywhere in the path
        { input: 'node_modules/x/index.js', expected: 'excluded-dir' },
        { input: 'packages/a/node_modules/x/index.js', expected: 'excluded-dir' },
        { input: 'foo.egg-info/PKG-INFO.txt', expected: 'excluded-dir' },
        { input: '.git/config.json', expected: 'excluded-dir' },
        { input: 'a/.venv/lib/site.py', expected: 'excluded-dir' },
        { input: 'a/__pycache__/m.py', expected: 'excluded-dir' },
        { input: 'build/out.js', expected: 'excluded-dir' },
        { input: 'src/build.ts', expected: 'eligible' },
        { input: 'src/dist.md', expected: 'eligible' },
        { input: 'web/.next/page.js', expected: 'excluded-dir' },
        { input: 'coverage/lcov.info.json', expected: 'excluded-dir' },
        // secret names, case-insensitive, even when the suffix is allowed
        { input: '.env', expected: 'secret-name' },
        { input: 'app/.env.local', expected: 'secret-name' },
        { input: '.ENV.production', expected: 'secret-name' },
        { input: 'server.pem', expected: 'secret-name' },
        { input: 'tls/server.KEY', expected: 'secret-name' },
        { input: 'cert.p12', expected: 'secret-name' },
        { input: 'cert.pfx', expected: 'secret-name' },
        { input: 'id_rsa', expected: 'secret-name' },
        { input: '.ssh/id_rsa.pub', expected: 'secret-name' },
        { input: 'id_dsa', expected: 'secret-name' },
        { input: 'id_ecdsa', expected: 'secret-name' },
        { input: 'id_ed25519', expected: 'secret-name' },
        { input: 'release.keystore', expected: 'secret-name' },
        { input: 'app.jks', expected: 'secret-name' },
        { input: 'credentials.json', expected: 'secret-name' },
        { input: 'aws/credentials', expected: 'secret-name' },
        { input: 'secrets.yaml', expected: 'secret-name' },
        { input: '.npmrc', expected: 'secret-name' },
        { input: '.pypirc', expected: 'secret-name' },
        { input: '.netrc', expected: 'secret-name' },
        { input: '.htpasswd', expected: 'secret-name' },
        { input: 'vault.kdbx', expected: 'secret-name' },
        { input: 'putty.ppk', expected: 'secret-name' },
        { input: 'key.asc', expected: 'secret-name' },
        { input: '.git-credentials', expected: 'secret-name' },
        { input: 'infra/terraform.tfstate', expected: 'secret-name' },
        { input: 'infra/terraform.tfstate.backup', expected: 'secret-name' },
        { input: 'prod.tfvars', expected: 'secret-name' },
        // well-known credential files of cloud, cluster and deployment tools
        { input: 'client_secret.json', expected: 'secret-name' },
        { input: 'auth/client_secret_123.apps.googleusercontent.com.json', expected: 'secret-name' },
        { input: 'service-account.json', expected: 'secret-name' },
        { input: 'gcp/prod-service_account.json', expected: 'secret-name' },
        { input: 'app-firebase-adminsdk-x1y2z.json', expected: 'secret-name' },
        { input: 'kubeconfig.yaml', expected: 'secret-name' },
        { input: 'kubeconfig', expected: 'secret-name' },
        { input: 'ops/staging.kubeconfig', expected: 'secret-name' },
        { input: 'home/.kube/config', expected: 'secret-name' },
        { input: 'terraform.tfvars', expected: 'secret-name' },
        { input: 'infra/terraform.tfvars.json', expected: 'secret-name' },
        { input: '.docker/config.json', expected: 'secret-name' },
        { input: 'ci/.docker/config.json', expected: 'secret-name' },
        { input: 'token.txt', expected: 'secret-name' },
        { input: 'token.json', expected: 'secret-name' },
        { input: 'wp-config.php', expected: 'secret-name' },
        { input: 'secret.yaml', expected: 'secret-name' },
        { input: 'k8s/secret.yml', expected: 'secret-name' },
        { input: 'secrets.yaml', expected: 'secret-name' },
        { input: 'prod.env', expected: 'secret-name' },
        { input: 'local.settings.json', expected: 'secret-name' },
        // code and ordinary config that only resemble them
        { input: 'src/tokenizer.ts', expected: 'eligible' },
        { input: 'src/token.ts', expected: 'eligible' },
        { input: 'src/serviceAccount.ts', expected: 'eligible' },
        { input: 'src/secret.ts', expected: 'eligible' },
        { input: 'pkg/kubeconfig.go', expected: 'eligible' },
        { input: 'config.json', expected: 'eligible' },
        { input: 'docker/config.json', expected: 'eligible' },
        { input: 'wp-config-sample.php', expected: 'eligible' },
        { input: 'environment.ts', expected: 'eligible' },
        { input: 'keys.ts', expected: 'eligible' },
        // normalisation of what callers pass
        { input: './src/a.ts', expected: 'eligible' },
        { input: 'src//a.ts', expected: 'eligible' },
        { input: '../outside.ts', expected: 'not-allowed' },
        { input: '/abs/a.ts', expected: 'not-allowed' },
        { input: '', expected: 'not-allowed' },
      ],
      reasonOf(defaults),
    );
  });

  describe('isEligiblePath with include/exclude globs', () => {
    const options = resolveDiscoveryOptions({ include: ['src/**', '*.md'], exclude: ['**/*.test.ts', 'src/generated/**'] });
    checkAll(
      [
        { input: 'src/a.ts', expected: 'eligible' },
        { input: 'src/.hidden/a.ts', expected: 'eligible' },
        { input: 'README.md', expected: 'eligible' },
        { input: 'docs/guide.md', expected: 'excluded-glob' },
        { input: 'lib/a.ts', expected: 'excluded-glob' },
        { input: 'src/a.test.ts', expected: 'excluded-glob' },
        { input: 'src/generated/api.ts', expected: 'excluded-glob' },
        // excluded directories win over globs; globs win over secrets (out of scope is not reported)
        { input: 'src/node_modules/a.js', expected: 'excluded-dir' },
        { input: '.env', expected: 'excluded-glob' },
        { input: 'src/.env', expected: 'secret-name' },
      ],
      reasonOf(options),
    );
  });

  describe('isEligiblePath with overridden lists', () => {
    const options = resolveDiscoveryOptions({
      extensions: ['MD', '.d.ts'],
      filenames: ['Vagrantfile'],
      excludeDirs: ['*.tmp', 'gen'],
      secretPatterns: ['*.secret.md'],
    });
    checkAll(
      [
        { input: 'a.md', expected: 'eligible' },
        { input: 'types/index.d.ts', expected: 'eligible' },
        { input: 'index.ts', expected: 'not-allowed' },
        { input: 'VAGRANTFILE', expected: 'eligible' },
        { input: 'Dockerfile', expected: 'not-allowed' },
        { input: 'x.tmp/a.md', expected: 'excluded-dir' },
        { input: 'gen/a.md', expected: 'excluded-dir' },
        { input: 'node_modules/a.md', expected: 'eligible' },
        { input: '.git/a.md', expected: 'excluded-dir' },
        { input: 'notes.Secret.MD', expected: 'secret-name' },
        { input: '.env', expected: 'not-allowed' },
      ],
      reasonOf(options),
    );
  });

  describe('resolveDiscoveryOptions', () => {
    it('defaults derive from the language table', () => {
      const o = resolveDiscoveryOptions();
      assert.deepEqual(o.extensions, Object.keys(LANGUAGES_BY_SUFFIX));
      assert.deepEqual(o.filenames, Object.keys(LANGUAGES_BY_FILENAME));
      assert.equal(o.maxFileBytes, 1048576);
      assert.equal(o.useGit, true);
      assert.deepEqual(o.ignoreFiles, ['.cairnignore']);
      assert.deepEqual(o.include, []);
      assert.deepEqual(o.exclude, []);
      for (const dir of ['.git', '.hg', '.svn', 'node_modules', 'bower_components', 'vendor', 'dist', 'build', 'out', 'target', '.venv', 'venv', '__pycache__', '.tox', '.mypy_cache', '.pytest_cache', '.next', '.nuxt', 'coverage', '.idea', '.gradle', '*.egg-info']) {
        assert.ok(o.excludeDirs.includes(dir), dir);
      }
      assert.deepEqual(o, { ...DEFAULT_DISCOVERY_OPTIONS });
    });

    it('normalises what people type and ignores undefined and invalid values', () => {
      const o = resolveDiscoveryOptions({ extensions: ['TS', ' .Md ', ''], filenames: ['Dockerfile'], maxFileBytes: Number.NaN, useGit: undefined });
      assert.deepEqual(o.extensions, ['.ts', '.md']);
      assert.deepEqual(o.filenames, ['dockerfile']);
      assert.equal(o.maxFileBytes, 1048576);
      assert.equal(o.useGit, true);
      assert.equal(resolveDiscoveryOptions({ maxFileBytes: 10 }).maxFileBytes, 10);
    });

    it('returns a fresh object and keeps the defaults frozen', () => {
      const o = resolveDiscoveryOptions();
      o.extensions.push('.zzz');
      assert.ok(!DEFAULT_DISCOVERY_OPTIONS.extensions.includes('.zzz'));
      assert.throws(() => (DEFAULT_DISCOVERY_OPTIONS.extensions as string[]).push('.zzz'));
    });
  });
});
