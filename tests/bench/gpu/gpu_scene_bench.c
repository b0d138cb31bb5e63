/* gpu_scene_bench: times a full-screen fragment shader headless through EGL (NVIDIA's device
 * platform, or Mesa's surfaceless llvmpipe), optionally with the viewport's scene texture bound,
 * so that the viewport's scene shader is timed as the editor runs it (data in a texture, not
 * in a constant array).
 *
 *   gpu_scene_bench FRAG [--data TEXELS.bin] [--size WxH]... [--seconds S] [--coarse [--tile N]]
 *
 * A FRAG named *.comp is the compute twin (render::computeShaderOf, written by floptle render
 * --shader-out X.comp) and is dispatched as the viewport runs it: one invocation a pixel in work
 * groups of 8 x 8, writing `image2D u_colorOut`; with --coarse the coarse pass first writes
 * `image2D u_coarseOut`, then a memory barrier, then the full pass reads it as u_coarse.
 *
 * --coarse draws each frame with the coarse pass (raymarch_glsl.cpp): FRAG built with
 * FLOPTLE_COARSE_PASS into an R32F target of a texel per tile of --tile (8) pixels square, then
 * FRAG built with FLOPTLE_COARSE_INPUT reading it as `uniform sampler2D u_coarse` (unit 2).
 *
 * FRAG: `#version 330 core`, `in vec2 vUv`, `out vec4 fragColor`, optional `uniform vec2
 * iResolution` and `uniform float iTime`. TEXELS.bin: float32 RGBA texels, 1024 a row
 * (render::SceneBuffers), bound as `uniform sampler2D u_sceneData` (texture unit 0).
 * Prints one line per size: "WxH MS ms/frame FPS fps (N frames)".
 * Build: gcc -O2 -o gpu_scene_bench gpu_scene_bench.c -lEGL -lOpenGL */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kDataWidth = 1024 };

static const char* kVertexSource =
    "#version 330 core\n"
    "out vec2 vUv;\n"
    "void main() {\n"
    "  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n"
    "  vUv = p;\n"
    "  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";

static void* readFile(const char* path, long* size) {
  FILE* file = fopen(path, "rb");
  if (!file) {
    perror(path);
    exit(2);
  }
  fseek(file, 0, SEEK_END);
  *size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char* bytes = malloc((size_t)*size + 1);
  if (fread(bytes, 1, (size_t)*size, file) != (size_t)*size) {
    perror(path);
    exit(2);
  }
  bytes[*size] = 0;
  fclose(file);
  return bytes;
}

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static GLuint shader(GLenum kind, const char* source) {
  GLuint id = glCreateShader(kind);
  glShaderSource(id, 1, &source, NULL);
  glCompileShader(id);
  GLint ok = 0;
  glGetShaderiv(id, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[16384];
    glGetShaderInfoLog(id, sizeof log, NULL, log);
    fprintf(stderr, "shader does not compile:\n%s\n", log);
    exit(1);
  }
  return id;
}

/* FRAG (or a compute shader) with `#define NAME` after its #version line (none when NAME is
 * NULL), linked. */
static GLuint program(const char* fragSource, const char* define, int compute) {
  const char* line = strchr(fragSource, '\n');
  const size_t head = line ? (size_t)(line - fragSource) + 1 : 0;
  char* source = malloc(strlen(fragSource) + 256);
  memcpy(source, fragSource, head);
  source[head] = 0;
  if (define) sprintf(source + head, "#define %s\n", define);
  strcat(source, fragSource + head);
  GLuint id = glCreateProgram();
  if (compute) {
    glAttachShader(id, shader(GL_COMPUTE_SHADER, source));
  } else {
    glAttachShader(id, shader(GL_VERTEX_SHADER, kVertexSource));
    glAttachShader(id, shader(GL_FRAGMENT_SHADER, source));
  }
  glLinkProgram(id);
  GLint linked = 0;
  glGetProgramiv(id, GL_LINK_STATUS, &linked);
  if (!linked) {
    fprintf(stderr, "program does not link\n");
    exit(1);
  }
  free(source);
  return id;
}

/* A w x h texture of `format` on texture unit `unit`, nearest-filtered, as the colour of a new
 * framebuffer (left bound). */
static void renderTarget(GLenum unit, GLenum format, int w, int h, GLuint* framebuffer,
                         GLuint* texture) {
  glGenFramebuffers(1, framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, *framebuffer);
  glGenTextures(1, texture);
  glActiveTexture(unit);
  glBindTexture(GL_TEXTURE_2D, *texture);
  glTexStorage2D(GL_TEXTURE_2D, 1, format, w, h);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, *texture, 0);
}

static EGLDisplay display(void) {
  PFNEGLQUERYDEVICESEXTPROC devices =
      (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
  PFNEGLGETPLATFORMDISPLAYEXTPROC platform =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  EGLint major = 0, minor = 0, count = 0;
  EGLDeviceEXT list[8];
  if (devices && platform && devices(8, list, &count)) {
    for (int i = 0; i < count; ++i) {
      EGLDisplay d = platform(EGL_PLATFORM_DEVICE_EXT, list[i], NULL);
      if (d && eglInitialize(d, &major, &minor)) return d;
    }
  }
  if (platform) {
    EGLDisplay d = platform(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (d && eglInitialize(d, &major, &minor)) return d;
  }
  return EGL_NO_DISPLAY;
}

int main(int argc, char** argv) {
  const char* fragPath = NULL;
  const char* dataPath = NULL;
  double runSeconds = 2.0;
  int coarse = 0, coarseTile = 8;
  int sizes[16][2];
  int sizeCount = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--coarse")) {
      coarse = 1;
    } else if (!strcmp(argv[i], "--tile") && i + 1 < argc) {
      coarseTile = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--data") && i + 1 < argc) {
      dataPath = argv[++i];
    } else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
      runSeconds = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--size") && i + 1 < argc && sizeCount < 16) {
      if (sscanf(argv[++i], "%dx%d", &sizes[sizeCount][0], &sizes[sizeCount][1]) == 2) ++sizeCount;
    } else {
      fragPath = argv[i];
    }
  }
  if (!fragPath) {
    fprintf(stderr, "usage: %s FRAG [--data TEXELS.bin] [--size WxH]... [--seconds S]\n", argv[0]);
    return 2;
  }
  if (sizeCount == 0) {
    sizes[0][0] = 1920;
    sizes[0][1] = 1080;
    sizeCount = 1;
  }

  EGLDisplay dpy = display();
  if (dpy == EGL_NO_DISPLAY) {
    fprintf(stderr, "no EGL display\n");
    return 1;
  }
  eglBindAPI(EGL_OPENGL_API);
  const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                      4,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      5,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
  EGLContext context = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, contextAttributes);
  if (context == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    fprintf(stderr, "no OpenGL 4.5 core context (EGL error 0x%x)\n", eglGetError());
    return 1;
  }
  printf("renderer: %s | %s\n", (const char*)glGetString(GL_RENDERER),
         (const char*)glGetString(GL_VERSION));

  long fragSize = 0;
  char* fragSource = readFile(fragPath, &fragSize);
  char fineDefines[128], tileDefines[128];
  sprintf(fineDefines, "FLOPTLE_COARSE_INPUT\n#define FLOPTLE_COARSE_TILE %d.0", coarseTile);
  sprintf(tileDefines, "FLOPTLE_COARSE_PASS\n#define FLOPTLE_COARSE_TILE %d.0", coarseTile);
  const size_t pathLength = strlen(fragPath);
  const int compute = pathLength > 5 && !strcmp(fragPath + pathLength - 5, ".comp");
  const int group = 8; /* render::kComputeGroup */
  const GLuint fine = program(fragSource, coarse ? fineDefines : NULL, compute);
  const GLuint tiles = coarse ? program(fragSource, tileDefines, compute) : 0;
  GLuint vao = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);

  if (dataPath) {
    long bytes = 0;
    float* texels = readFile(dataPath, &bytes);
    const long count = bytes / 16;
    if (count % kDataWidth != 0) {
      fprintf(stderr, "%s: %ld texels is not whole rows of %d\n", dataPath, count, kDataWidth);
      return 2;
    }
    GLuint texture = 0;
    glActiveTexture(GL_TEXTURE0);
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, kDataWidth, (GLsizei)(count / kDataWidth));
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kDataWidth, (GLsizei)(count / kDataWidth), GL_RGBA,
                    GL_FLOAT, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  const GLuint programs[2] = {fine, tiles};
  for (int p = 0; p < 1 + coarse; ++p) {
    glUseProgram(programs[p]);
    glUniform1i(glGetUniformLocation(programs[p], "u_sceneData"), 0);
    glUniform1i(glGetUniformLocation(programs[p], "u_coarse"), 2);
    glUniform1i(glGetUniformLocation(programs[p], "u_colorOut"), 0); /* image units */
    glUniform1i(glGetUniformLocation(programs[p], "u_coarseOut"), 1);
    glUniform1f(glGetUniformLocation(programs[p], "iTime"), 0.0f);
  }

  for (int s = 0; s < sizeCount; ++s) {
    const int w = sizes[s][0], h = sizes[s][1];
    GLuint framebuffer = 0, target = 0;
    renderTarget(GL_TEXTURE1, GL_RGBA8, w, h, &framebuffer, &target);
    // The coarse pass's target: a float per tile, read by the full pass on unit 2.
    const int tw = (w + coarseTile - 1) / coarseTile, th = (h + coarseTile - 1) / coarseTile;
    GLuint tileBuffer = 0, tileTarget = 0;
    if (coarse) renderTarget(GL_TEXTURE2, GL_R32F, tw, th, &tileBuffer, &tileTarget);
    glActiveTexture(GL_TEXTURE0);
    for (int p = 0; p < 1 + coarse; ++p) {
      glUseProgram(programs[p]);
      glUniform2f(glGetUniformLocation(programs[p], "iResolution"), (float)w, (float)h);
    }
    int frames = -1;  // the first frame pays for the driver's compile
    double start = 0.0;
    while (frames < 0 || (seconds() - start < runSeconds && frames < 5000)) {
      if (compute) {
        if (coarse) {
          glUseProgram(tiles);
          glBindImageTexture(1, tileTarget, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32F);
          glDispatchCompute((GLuint)((tw + group - 1) / group), (GLuint)((th + group - 1) / group),
                            1);
          glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
        }
        glUseProgram(fine);
        glBindImageTexture(0, target, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
        glDispatchCompute((GLuint)((w + group - 1) / group), (GLuint)((h + group - 1) / group), 1);
        glFinish();
        if (++frames == 0) start = seconds();
        continue;
      }
      if (coarse) {
        glBindFramebuffer(GL_FRAMEBUFFER, tileBuffer);
        glViewport(0, 0, tw, th);
        glUseProgram(tiles);
        glDrawArrays(GL_TRIANGLES, 0, 3);
      }
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
      glViewport(0, 0, w, h);
      glUseProgram(fine);
      glDrawArrays(GL_TRIANGLES, 0, 3);
      glFinish();
      if (++frames == 0) start = seconds();
    }
    const double ms = 1e3 * (seconds() - start) / frames;
    printf("%dx%d %.3f ms/frame %.1f fps (%d frames)\n", w, h, ms, 1e3 / ms, frames);
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteTextures(1, &target);
    if (coarse) {
      glDeleteFramebuffers(1, &tileBuffer);
      glDeleteTextures(1, &tileTarget);
    }
  }
  return 0;
}
