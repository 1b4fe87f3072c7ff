package org.sourceoftruth.records;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's chromium, headless, driven through chromedriver with a throw-away profile, for the
 * browser tests. Without the two programs the calling test class is skipped with a message
 * saying how to install them. Screenshots go to {@link #SCREENSHOTS} (docs/ui/ holds copies).
 */
public final class HeadlessChromium implements AutoCloseable {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    public static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private final WebDriver driver;
    private final Path profile;

    private HeadlessChromium(WebDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Starts the browser, or aborts the calling test class (skipped, not failed) if it is not installed. */
    public static HeadlessChromium startOrSkip(Class<?> test) throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            String message = "\n*** " + test.getSimpleName() + " SKIPPED: " + CHROMIUM + " or " + CHROMEDRIVER
                    + " is missing."
                    + "\n*** Install them: apt-get install -y chromium chromium-driver (deploy/local/stack test does).\n";
            System.err.println(message);
            Assumptions.abort(message);
        }
        Files.createDirectories(SCREENSHOTS);
        Path profile = Files.createTempDirectory("chromium-profile");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1400,1000",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        WebDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(90));
        return new HeadlessChromium(driver, profile);
    }

    public WebDriver driver() {
        return driver;
    }

    /** Saves the window as {@code SCREENSHOTS/<name>.png}. */
    public void screenshot(String name) throws Exception {
        byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }

    @Override
    public void close() throws Exception {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(java.io.File::delete);
        }
    }
}
